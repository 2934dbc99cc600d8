ALTER TABLE "agent_executions" ADD COLUMN "base_node_id" text;--> statement-breakpoint
ALTER TABLE "agent_executions" ADD COLUMN "delivery" text;--> statement-breakpoint
-- Steps stored before the column existed: a delegation's id is its node id and '#n'.
UPDATE "agent_executions" SET "base_node_id" = split_part("node_id", '#', 1) WHERE "node_id" IS NOT NULL;

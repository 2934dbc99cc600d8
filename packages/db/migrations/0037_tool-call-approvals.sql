DROP INDEX "approvals_execution_id_node_id_unique";--> statement-breakpoint
-- Links from before ask never, so nothing already running changes behaviour; new links ask for writes.
ALTER TABLE "agent_tools" ADD COLUMN "approval" text DEFAULT 'never' NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_tools" ALTER COLUMN "approval" SET DEFAULT 'writes';--> statement-breakpoint
ALTER TABLE "approvals" ADD COLUMN "call_id" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "approvals" ADD COLUMN "tool_call" jsonb;--> statement-breakpoint
CREATE UNIQUE INDEX "approvals_execution_id_node_id_call_id_unique" ON "approvals" USING btree ("execution_id","node_id","call_id");
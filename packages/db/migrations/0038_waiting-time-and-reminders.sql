ALTER TABLE "approvals" ADD COLUMN "remind_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "workflow_executions" ADD COLUMN "waited_us" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "approvals_remind_at_idx" ON "approvals" USING btree ("remind_at") WHERE "approvals"."remind_at" is not null;
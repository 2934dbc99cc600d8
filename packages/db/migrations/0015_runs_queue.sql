DROP INDEX "workflow_executions_unfinished_idx";--> statement-breakpoint
CREATE INDEX "workflow_executions_unfinished_idx" ON "workflow_executions" USING btree ("created_at") WHERE "workflow_executions"."status" in ('pending', 'running');--> statement-breakpoint
-- Runs are queued in workflow_executions itself now; pg-boss and its tables are gone.
DROP SCHEMA IF EXISTS "pgboss" CASCADE;

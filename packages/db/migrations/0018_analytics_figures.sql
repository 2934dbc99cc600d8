-- Analytics read each run's duration and tokens and each step's time, tokens and reused flag as stored
-- columns (computed by Postgres from the same expressions the analytics query used on the metrics JSON,
-- on every write and here for the rows already written), and from the indexes alone.
DROP INDEX "agent_executions_agent_id_created_at_idx";--> statement-breakpoint
DROP INDEX "workflow_executions_organization_id_created_at_idx";--> statement-breakpoint
ALTER TABLE "agent_executions" ADD COLUMN "execution_ms" double precision GENERATED ALWAYS AS (case when "status" = 'completed' and jsonb_typeof("metrics"->'executionTime') = 'number'
  then ("metrics"->>'executionTime')::float8 end) STORED;--> statement-breakpoint
ALTER TABLE "agent_executions" ADD COLUMN "total_tokens" numeric GENERATED ALWAYS AS (case when jsonb_typeof("metrics"->'totalTokens') = 'number' then ("metrics"->'totalTokens')::numeric else 0 end) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_executions" ADD COLUMN "reused" boolean GENERATED ALWAYS AS ("metrics"->>'reused' is not null) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "workflow_executions" ADD COLUMN "duration_us" bigint GENERATED ALWAYS AS (case when "status" in ('completed', 'failed') and "started_at" is not null and "completed_at" is not null
  then (extract(epoch from "completed_at" - "started_at") * 1000000)::bigint end) STORED;--> statement-breakpoint
ALTER TABLE "workflow_executions" ADD COLUMN "total_tokens" numeric GENERATED ALWAYS AS (case when jsonb_typeof("metrics"->'totalTokens') = 'number' then ("metrics"->'totalTokens')::numeric else 0 end) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "agent_executions_agent_id_created_at_idx" ON "agent_executions" USING btree ("agent_id","created_at","reused","status","execution_ms","total_tokens");--> statement-breakpoint
CREATE INDEX "workflow_executions_organization_id_created_at_idx" ON "workflow_executions" USING btree ("organization_id","created_at" DESC NULLS FIRST,"status","started_at","completed_at","workflow_id","duration_us","total_tokens");
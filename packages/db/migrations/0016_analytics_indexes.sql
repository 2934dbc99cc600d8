-- Per-agent analytics read an agent's steps in a range; the dashboard's counters read runs from the index alone.
DROP INDEX "agent_executions_agent_id_idx";--> statement-breakpoint
DROP INDEX "workflow_executions_organization_id_created_at_idx";--> statement-breakpoint
CREATE INDEX "agent_executions_agent_id_created_at_idx" ON "agent_executions" USING btree ("agent_id","created_at");--> statement-breakpoint
CREATE INDEX "workflow_executions_organization_id_created_at_idx" ON "workflow_executions" USING btree ("organization_id","created_at" DESC NULLS FIRST,"status","started_at","completed_at");
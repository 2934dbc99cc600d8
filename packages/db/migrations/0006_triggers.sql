ALTER TABLE "workflow_executions" ADD COLUMN "trigger" text DEFAULT 'manual' NOT NULL;--> statement-breakpoint
ALTER TABLE "workflows" ADD COLUMN "webhook_secret" text;--> statement-breakpoint
ALTER TABLE "workflows" ADD COLUMN "next_run_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "workflows" ADD COLUMN "last_trigger_error" text;--> statement-breakpoint
ALTER TABLE "workflows" ADD COLUMN "last_trigger_error_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "workflows_next_run_at_idx" ON "workflows" USING btree ("next_run_at") WHERE "workflows"."status" = 'active' and "workflows"."trigger_type" = 'schedule';
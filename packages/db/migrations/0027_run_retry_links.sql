ALTER TABLE "workflow_executions" ADD COLUMN "retry_of" uuid;--> statement-breakpoint
ALTER TABLE "workflow_executions" ADD COLUMN "failed_step" text;--> statement-breakpoint
ALTER TABLE "workflow_executions" ADD CONSTRAINT "workflow_executions_retry_of_workflow_executions_id_fk" FOREIGN KEY ("retry_of") REFERENCES "public"."workflow_executions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "workflow_executions_retry_of_unique" ON "workflow_executions" USING btree ("retry_of") WHERE "workflow_executions"."retry_of" is not null;
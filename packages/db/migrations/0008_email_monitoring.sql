CREATE TABLE "email_trigger_messages" (
	"workflow_id" uuid NOT NULL,
	"message_id" text NOT NULL,
	"execution_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_trigger_messages_pk" PRIMARY KEY("workflow_id","message_id")
);
--> statement-breakpoint
ALTER TABLE "microsoft_tokens" ADD COLUMN "connected_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "microsoft_tokens" ADD COLUMN "delta_link" text;--> statement-breakpoint
ALTER TABLE "microsoft_tokens" ADD COLUMN "next_poll_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "email_trigger_messages" ADD CONSTRAINT "email_trigger_messages_workflow_id_workflows_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_trigger_messages" ADD CONSTRAINT "email_trigger_messages_execution_id_workflow_executions_id_fk" FOREIGN KEY ("execution_id") REFERENCES "public"."workflow_executions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_trigger_messages_created_at_idx" ON "email_trigger_messages" USING btree ("created_at");
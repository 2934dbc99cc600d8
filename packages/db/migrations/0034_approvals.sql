ALTER TYPE "public"."execution_status" ADD VALUE 'waiting' BEFORE 'completed';--> statement-breakpoint
CREATE TABLE "approval_decisions" (
	"approval_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"decision" text NOT NULL,
	"comment" text,
	"fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"via" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "approval_decisions_approval_id_user_id_pk" PRIMARY KEY("approval_id","user_id"),
	CONSTRAINT "approval_decisions_decision_check" CHECK ("approval_decisions"."decision" in ('approve', 'reject'))
);
--> statement-breakpoint
CREATE TABLE "approvals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"execution_id" uuid NOT NULL,
	"workflow_id" uuid NOT NULL,
	"node_id" text NOT NULL,
	"title" text NOT NULL,
	"message" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"policy" jsonb NOT NULL,
	"assignees" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"fields" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"on_timeout" text,
	"expires_at" timestamp with time zone,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "approvals_status_check" CHECK ("approvals"."status" in ('pending', 'approved', 'rejected', 'timed_out', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "workflow_executions" ADD COLUMN "waiting" jsonb;--> statement-breakpoint
ALTER TABLE "workflow_executions" ADD COLUMN "wake_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "approval_decisions" ADD CONSTRAINT "approval_decisions_approval_id_approvals_id_fk" FOREIGN KEY ("approval_id") REFERENCES "public"."approvals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_decisions" ADD CONSTRAINT "approval_decisions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_execution_id_workflow_executions_id_fk" FOREIGN KEY ("execution_id") REFERENCES "public"."workflow_executions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_workflow_id_workflows_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "approvals_execution_id_node_id_unique" ON "approvals" USING btree ("execution_id","node_id");--> statement-breakpoint
CREATE INDEX "approvals_organization_id_status_created_at_idx" ON "approvals" USING btree ("organization_id","status","created_at");--> statement-breakpoint
CREATE INDEX "workflow_executions_wake_at_idx" ON "workflow_executions" USING btree ("wake_at") WHERE "workflow_executions"."wake_at" is not null;
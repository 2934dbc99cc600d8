ALTER TYPE "public"."tool_category" ADD VALUE 'mcp';--> statement-breakpoint
CREATE TABLE "workflow_publishing" (
	"workflow_id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"mcp_enabled" boolean DEFAULT false NOT NULL,
	"mcp_tool_name" text,
	"mcp_description" text,
	"mcp_input_schema" jsonb,
	"mcp_timeout_seconds" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tools" ADD COLUMN "mcp_tools" jsonb;--> statement-breakpoint
ALTER TABLE "workflow_executions" ADD COLUMN "trigger_detail" text;--> statement-breakpoint
ALTER TABLE "workflow_publishing" ADD CONSTRAINT "workflow_publishing_workflow_id_workflows_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_publishing" ADD CONSTRAINT "workflow_publishing_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "workflow_publishing_mcp_tool_name_unique" ON "workflow_publishing" USING btree ("organization_id","mcp_tool_name") WHERE "workflow_publishing"."mcp_tool_name" is not null;
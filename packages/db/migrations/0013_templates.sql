ALTER TABLE "agent_templates" ADD COLUMN "slug" text;--> statement-breakpoint
ALTER TABLE "agent_templates" ADD COLUMN "organization_id" uuid;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "template_source" text;--> statement-breakpoint
ALTER TABLE "workflow_templates" ADD COLUMN "slug" text;--> statement-breakpoint
ALTER TABLE "workflow_templates" ADD COLUMN "organization_id" uuid;--> statement-breakpoint
ALTER TABLE "workflow_templates" ADD COLUMN "agents" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_templates" ADD CONSTRAINT "agent_templates_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_templates" ADD CONSTRAINT "workflow_templates_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agent_templates_organization_id_idx" ON "agent_templates" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "agents_template_source_idx" ON "agents" USING btree ("organization_id","template_source");--> statement-breakpoint
CREATE INDEX "workflow_templates_organization_id_idx" ON "workflow_templates" USING btree ("organization_id");--> statement-breakpoint
ALTER TABLE "agent_templates" ADD CONSTRAINT "agent_templates_slug_unique" UNIQUE("slug");--> statement-breakpoint
ALTER TABLE "workflow_templates" ADD CONSTRAINT "workflow_templates_slug_unique" UNIQUE("slug");
CREATE TABLE "model_usage" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "model_usage_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"organization_id" uuid NOT NULL,
	"source" text NOT NULL,
	"workflow_id" uuid,
	"execution_id" uuid,
	"agent_id" uuid,
	"trigger" text,
	"provider" text NOT NULL,
	"model" text NOT NULL,
	"server_key" boolean DEFAULT false NOT NULL,
	"calls" integer DEFAULT 1 NOT NULL,
	"input_tokens" bigint DEFAULT 0 NOT NULL,
	"cached_input_tokens" bigint DEFAULT 0 NOT NULL,
	"output_tokens" bigint DEFAULT 0 NOT NULL,
	"cost_micros" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organization_budgets" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"monthly_cap_micros" bigint,
	"included_spend_micros" bigint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "spend_counters" (
	"organization_id" uuid NOT NULL,
	"scope" text NOT NULL,
	"scope_id" text DEFAULT '' NOT NULL,
	"month" date NOT NULL,
	"spent_micros" bigint DEFAULT 0 NOT NULL,
	"reserved_micros" bigint DEFAULT 0 NOT NULL,
	"alerted" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "spend_counters_organization_id_scope_scope_id_month_pk" PRIMARY KEY("organization_id","scope","scope_id","month")
);
--> statement-breakpoint
ALTER TABLE "model_usage" ADD CONSTRAINT "model_usage_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_budgets" ADD CONSTRAINT "organization_budgets_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spend_counters" ADD CONSTRAINT "spend_counters_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "model_usage_organization_id_created_at_idx" ON "model_usage" USING btree ("organization_id","created_at");
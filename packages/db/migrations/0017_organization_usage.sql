CREATE TABLE "organization_usage" (
	"organization_id" uuid NOT NULL,
	"month" date NOT NULL,
	"executions" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "organization_usage_pk" PRIMARY KEY("organization_id","month")
);
--> statement-breakpoint
ALTER TABLE "organization_usage" ADD CONSTRAINT "organization_usage_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Each statement that inserts runs adds them to their organizations' months (UTC) in one write, a
-- bulk insert included. The plan's limit then reads one row instead of counting the month's runs.
CREATE FUNCTION "count_organization_runs"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "organization_usage" ("organization_id", "month", "executions")
  SELECT "organization_id", date_trunc('month', "created_at" AT TIME ZONE 'UTC')::date, count(*)
  FROM "new_runs" GROUP BY 1, 2
  ON CONFLICT ("organization_id", "month")
  DO UPDATE SET "executions" = "organization_usage"."executions" + excluded."executions";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "workflow_executions_count_runs" AFTER INSERT ON "workflow_executions"
  REFERENCING NEW TABLE AS "new_runs" FOR EACH STATEMENT EXECUTE FUNCTION "count_organization_runs"();--> statement-breakpoint
INSERT INTO "organization_usage" ("organization_id", "month", "executions")
SELECT "organization_id", date_trunc('month', "created_at" AT TIME ZONE 'UTC')::date, count(*)
FROM "workflow_executions" GROUP BY 1, 2;

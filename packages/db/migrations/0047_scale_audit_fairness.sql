CREATE TABLE "audit_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" uuid,
	"actor_name" text,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text,
	"target_name" text,
	"ip" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
DROP INDEX "workflow_executions_unfinished_idx";--> statement-breakpoint
DROP INDEX "workflow_executions_wake_at_idx";--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "concurrent_runs" integer;--> statement-breakpoint
ALTER TABLE "workflow_executions" ADD COLUMN "concurrency_limit" integer;--> statement-breakpoint
ALTER TABLE "workflow_executions" ADD COLUMN "trace_parent" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_events_organization_at_idx" ON "audit_events" USING btree ("organization_id","at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_events_at_idx" ON "audit_events" USING btree ("at");--> statement-breakpoint
CREATE INDEX "workflow_executions_queue_idx" ON "workflow_executions" USING btree ("organization_id","status","created_at") WHERE "workflow_executions"."status" in ('pending', 'running');--> statement-breakpoint
CREATE INDEX "workflow_executions_wake_at_idx" ON "workflow_executions" USING btree ("wake_at") WHERE "workflow_executions"."status" = 'waiting';--> statement-breakpoint
-- The workers' fair claim (docs/decisions/0050-fair-claims.md): among the organizations with runs free
-- to run (pending, or running under a lapsed lease), the one using the least share of its concurrency
-- limit goes first, then the oldest run; an organization at its limit is passed over. Each candidate's
-- count is taken again under a lock of that organization's claims, with a fresh snapshot (a volatile
-- function's statements each take one), so two workers claiming at once never both take its last
-- slot. Returns the claimed row (a new attempt under the lease), or nothing.
CREATE FUNCTION "claim_next_run"("claim_now" timestamptz, "lease_until" timestamptz)
RETURNS SETOF "workflow_executions" LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  candidate record;
  in_progress integer;
BEGIN
  FOR candidate IN
    WITH RECURSIVE "queued"("organization_id") AS (
      (SELECT e."organization_id" FROM "workflow_executions" e
        WHERE e."status" IN ('pending', 'running') ORDER BY e."organization_id" LIMIT 1)
      UNION ALL
      SELECT (SELECT e."organization_id" FROM "workflow_executions" e
        WHERE e."status" IN ('pending', 'running') AND e."organization_id" > q."organization_id"
        ORDER BY e."organization_id" LIMIT 1)
      FROM "queued" q WHERE q."organization_id" IS NOT NULL
    )
    SELECT c.* FROM (
      SELECT q."organization_id", oldest."created_at", oldest."concurrency_limit",
        (SELECT count(*) FROM "workflow_executions" r
          WHERE r."organization_id" = q."organization_id" AND r."status" = 'running'
            AND r."lease_expires_at" >= "claim_now") AS "running"
      FROM "queued" q
      CROSS JOIN LATERAL (
        SELECT o."created_at", o."concurrency_limit" FROM (
          (SELECT e."created_at", e."concurrency_limit" FROM "workflow_executions" e
            WHERE e."organization_id" = q."organization_id" AND e."status" = 'pending'
            ORDER BY e."created_at" LIMIT 1)
          UNION ALL
          (SELECT e."created_at", e."concurrency_limit" FROM "workflow_executions" e
            WHERE e."organization_id" = q."organization_id" AND e."status" = 'running'
              AND e."lease_expires_at" < "claim_now"
            ORDER BY e."created_at" LIMIT 1)
        ) o ORDER BY o."created_at" LIMIT 1
      ) oldest
      WHERE q."organization_id" IS NOT NULL
    ) c
    ORDER BY c."running"::float8 / greatest(coalesce(c."concurrency_limit", 1000000), 1), c."created_at"
  LOOP
    IF candidate."concurrency_limit" IS NOT NULL THEN
      PERFORM pg_advisory_xact_lock(hashtextextended('claim_next_run:' || candidate."organization_id"::text, 0));
      SELECT count(*) INTO in_progress FROM "workflow_executions" r
        WHERE r."organization_id" = candidate."organization_id" AND r."status" = 'running'
          AND r."lease_expires_at" >= "claim_now";
      CONTINUE WHEN in_progress >= candidate."concurrency_limit";
    END IF;
    RETURN QUERY
      UPDATE "workflow_executions" u SET
        "status" = 'running',
        "attempt" = u."attempt" + 1,
        "started_at" = coalesce(u."started_at", now()),
        "lease_expires_at" = "lease_until"
      WHERE u."id" = (
        SELECT e."id" FROM "workflow_executions" e
        WHERE e."organization_id" = candidate."organization_id"
          AND (e."status" = 'pending' OR (e."status" = 'running' AND e."lease_expires_at" < "claim_now"))
        ORDER BY e."created_at" LIMIT 1
        FOR UPDATE SKIP LOCKED
      )
      RETURNING u.*;
    IF FOUND THEN RETURN; END IF;
  END LOOP;
END $$;

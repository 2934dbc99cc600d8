-- A run started where a worker loop is idle is inserted already claimed by it (docs/decisions/0058-
-- runs-claimed-as-they-start.md), when nothing else waits in the queue and its organization is under
-- its concurrency limit. The limit is checked as claim_next_run checks it: under the same lock of the
-- organization's claims, with a fresh snapshot (each statement of a volatile function takes one), so
-- a start and a claim, or two starts, never both take the organization's last slot. The lock is held
-- until the start's transaction ends. True when the run may start claimed.
CREATE FUNCTION "claim_on_start"("organization" uuid, "concurrency_limit" integer, "claim_now" timestamptz)
RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  in_progress integer;
BEGIN
  IF EXISTS (SELECT 1 FROM "workflow_executions" e WHERE e."status" = 'pending') THEN
    RETURN false;
  END IF;
  IF "concurrency_limit" IS NULL THEN
    RETURN true;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('claim_next_run:' || "organization"::text, 0));
  SELECT count(*) INTO in_progress FROM "workflow_executions" r
    WHERE r."organization_id" = "organization" AND r."status" = 'running'
      AND r."lease_expires_at" >= "claim_now";
  RETURN in_progress < "concurrency_limit";
END $$;

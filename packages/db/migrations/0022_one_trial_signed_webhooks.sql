CREATE TABLE "webhook_signatures_seen" (
	"workflow_id" uuid NOT NULL,
	"signature" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "webhook_signatures_seen_pk" PRIMARY KEY("workflow_id","signature")
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "trial_used_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_signatures_seen" ADD CONSTRAINT "webhook_signatures_seen_workflow_id_workflows_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_signatures_seen_expires_at_idx" ON "webhook_signatures_seen" USING btree ("expires_at");--> statement-breakpoint
-- Every organization that had a trial or a subscription has used its trial; only organizations from
-- before plans existed (Free, never trialled) keep theirs.
UPDATE "organizations" SET "trial_used_at" = coalesce("trial_ends_at" - interval '14 days', "created_at") WHERE "trial_ends_at" IS NOT NULL OR "subscription_status" <> 'no_subscription' OR "stripe_subscription_id" IS NOT NULL;

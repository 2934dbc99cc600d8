CREATE TABLE "subscriptions" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"plan" text DEFAULT 'starter' NOT NULL,
	"stripe_customer_id" text,
	"stripe_subscription_id" text,
	"trial_ends_at" timestamp with time zone,
	"subscription_status" text DEFAULT 'no_subscription' NOT NULL,
	"current_period_end" timestamp with time zone,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"pending_plan" text,
	"billing_interval" text DEFAULT 'month' NOT NULL,
	"payment_method" text,
	"trial_used_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscriptions_subscription_status_check" CHECK ("subscriptions"."subscription_status" in ('no_subscription', 'trialing', 'active', 'past_due', 'canceled'))
);
--> statement-breakpoint
ALTER TABLE "organizations" DROP CONSTRAINT "organizations_subscription_status_check";--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Every organization keeps its plan, trial and subscription: its row is copied before the columns go.
INSERT INTO "subscriptions" ("organization_id", "plan", "stripe_customer_id", "stripe_subscription_id", "trial_ends_at", "subscription_status", "current_period_end", "cancel_at_period_end", "pending_plan", "billing_interval", "payment_method", "trial_used_at", "updated_at")
SELECT "id", "plan", "stripe_customer_id", "stripe_subscription_id", "trial_ends_at", "subscription_status", "current_period_end", "cancel_at_period_end", "pending_plan", "billing_interval", "payment_method", "trial_used_at", "updated_at" FROM "organizations";--> statement-breakpoint
ALTER TABLE "organizations" DROP COLUMN "plan";--> statement-breakpoint
ALTER TABLE "organizations" DROP COLUMN "stripe_customer_id";--> statement-breakpoint
ALTER TABLE "organizations" DROP COLUMN "stripe_subscription_id";--> statement-breakpoint
ALTER TABLE "organizations" DROP COLUMN "trial_ends_at";--> statement-breakpoint
ALTER TABLE "organizations" DROP COLUMN "subscription_status";--> statement-breakpoint
ALTER TABLE "organizations" DROP COLUMN "current_period_end";--> statement-breakpoint
ALTER TABLE "organizations" DROP COLUMN "cancel_at_period_end";--> statement-breakpoint
ALTER TABLE "organizations" DROP COLUMN "pending_plan";--> statement-breakpoint
ALTER TABLE "organizations" DROP COLUMN "billing_interval";--> statement-breakpoint
ALTER TABLE "organizations" DROP COLUMN "payment_method";--> statement-breakpoint
ALTER TABLE "organizations" DROP COLUMN "trial_used_at";
ALTER TABLE "organizations" ADD COLUMN "subscription_status" text DEFAULT 'no_subscription' NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "current_period_end" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "cancel_at_period_end" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "pending_plan" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_subscription_status_check" CHECK ("organizations"."subscription_status" in ('no_subscription', 'trialing', 'active', 'past_due', 'canceled'));
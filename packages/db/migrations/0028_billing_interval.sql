ALTER TABLE "organizations" ADD COLUMN "billing_interval" text DEFAULT 'month' NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "payment_method" text;
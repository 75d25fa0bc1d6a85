ALTER TABLE "policies" ADD COLUMN "not_renewing_reason" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "policies" ADD COLUMN "not_renewing_at" timestamp with time zone;
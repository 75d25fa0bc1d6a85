ALTER TABLE "imports" ADD COLUMN "past_instalments" text DEFAULT 'paid' NOT NULL;--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN "expired_unpaid" boolean DEFAULT false NOT NULL;
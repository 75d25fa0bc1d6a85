ALTER TABLE "imports" ADD COLUMN "date_order" text;--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN "date_hints" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "two_step_first_required" timestamp with time zone;
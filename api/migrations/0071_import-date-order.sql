ALTER TABLE "imports" ADD COLUMN "date_order" text;--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN "date_hints" jsonb DEFAULT '[]'::jsonb NOT NULL;
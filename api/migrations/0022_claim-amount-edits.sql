ALTER TABLE "claim_events" ADD COLUMN "amount_field" text;--> statement-breakpoint
ALTER TABLE "claim_events" ADD COLUMN "amount_from" numeric(14, 2);--> statement-breakpoint
ALTER TABLE "claim_events" ADD COLUMN "amount_to" numeric(14, 2);
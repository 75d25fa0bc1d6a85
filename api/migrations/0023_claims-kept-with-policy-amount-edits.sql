ALTER TABLE "claims" DROP CONSTRAINT "claims_policy_fk";
--> statement-breakpoint
ALTER TABLE "claim_events" ADD COLUMN "amount_field" text;--> statement-breakpoint
ALTER TABLE "claim_events" ADD COLUMN "amount_from" numeric(14, 2);--> statement-breakpoint
ALTER TABLE "claim_events" ADD COLUMN "amount_to" numeric(14, 2);--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_policy_fk" FOREIGN KEY ("tenant_id","policy_id") REFERENCES "public"."policies"("tenant_id","id") ON DELETE no action ON UPDATE no action;
ALTER TABLE "claims" DROP CONSTRAINT "claims_policy_fk";
--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_policy_fk" FOREIGN KEY ("tenant_id","policy_id") REFERENCES "public"."policies"("tenant_id","id") ON DELETE no action ON UPDATE no action;
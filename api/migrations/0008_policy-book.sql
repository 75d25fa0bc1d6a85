CREATE TABLE "policy_book_totals" (
	"tenant_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"standing" text NOT NULL,
	"policies" integer NOT NULL,
	"total_premium" numeric NOT NULL,
	"expected_commission" numeric NOT NULL,
	"received_full_policy" numeric NOT NULL,
	"received_pro_rata" numeric NOT NULL,
	CONSTRAINT "policy_book_totals_pkey" PRIMARY KEY("tenant_id","company_id","start_date","end_date","standing")
);
--> statement-breakpoint
ALTER TABLE "policies" ADD COLUMN "renewed_to_id" uuid;--> statement-breakpoint
ALTER TABLE "policies" ADD CONSTRAINT "policies_renewed_to_fk" FOREIGN KEY ("tenant_id","renewed_to_id") REFERENCES "public"."policies"("tenant_id","id") ON DELETE SET NULL ("renewed_to_id") ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "policies_renewed_to_key" ON "policies" USING btree ("renewed_to_id");--> statement-breakpoint
CREATE INDEX "policies_open_start_idx" ON "policies" USING btree ("tenant_id","start_date","end_date") WHERE cancelled_at is null and renewed_to_id is null;--> statement-breakpoint
CREATE INDEX "policies_open_end_idx" ON "policies" USING btree ("tenant_id","end_date","start_date") WHERE cancelled_at is null and renewed_to_id is null;
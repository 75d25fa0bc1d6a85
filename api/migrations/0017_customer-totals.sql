CREATE TABLE "customer_totals" (
	"tenant_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"policies" integer NOT NULL,
	"total_premium" numeric NOT NULL,
	"expected_commission" numeric NOT NULL,
	"received_full_policy" numeric NOT NULL,
	"received_pro_rata" numeric NOT NULL,
	"first_start" date NOT NULL,
	CONSTRAINT "customer_totals_pkey" PRIMARY KEY("customer_id","company_id")
);
--> statement-breakpoint
CREATE INDEX "customer_totals_tenant_idx" ON "customer_totals" USING btree ("tenant_id");
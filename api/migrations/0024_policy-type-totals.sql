CREATE TABLE "policy_type_totals" (
	"tenant_id" uuid NOT NULL,
	"policy_type_id" uuid NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"standing" text NOT NULL,
	"policies" integer NOT NULL,
	"total_premium" numeric NOT NULL,
	CONSTRAINT "policy_type_totals_pkey" PRIMARY KEY("tenant_id","policy_type_id","start_date","end_date","standing")
);
--> statement-breakpoint
CREATE INDEX "policy_type_totals_status_idx" ON "policy_type_totals" USING btree ("tenant_id","standing","end_date","start_date");
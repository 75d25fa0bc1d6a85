CREATE TABLE "book_months" (
	"tenant_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"month" date NOT NULL,
	"in_force" integer NOT NULL,
	"premium_in_force" numeric NOT NULL,
	"new_policies" integer NOT NULL,
	"expected_commission" numeric NOT NULL,
	"renewed" integer NOT NULL,
	"ended_open" integer NOT NULL,
	"cancelled" integer NOT NULL,
	"received_full_policy" numeric NOT NULL,
	"received_pro_rata" numeric NOT NULL,
	CONSTRAINT "book_months_pkey" PRIMARY KEY("tenant_id","month","company_id")
);
--> statement-breakpoint
CREATE TABLE "policy_months" (
	"tenant_id" uuid NOT NULL,
	"policy_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"month" date NOT NULL,
	"in_force" integer NOT NULL,
	"premium_in_force" numeric NOT NULL,
	"new_policies" integer NOT NULL,
	"expected_commission" numeric NOT NULL,
	"renewed" integer NOT NULL,
	"ended_open" integer NOT NULL,
	"cancelled" integer NOT NULL,
	"received_full_policy" numeric NOT NULL,
	"received_pro_rata" numeric NOT NULL,
	CONSTRAINT "policy_months_pkey" PRIMARY KEY("policy_id","month")
);
--> statement-breakpoint
CREATE INDEX "policy_months_tenant_month_idx" ON "policy_months" USING btree ("tenant_id","month");
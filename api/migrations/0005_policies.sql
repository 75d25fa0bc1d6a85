CREATE TABLE "installments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"policy_id" uuid NOT NULL,
	"sequence" integer NOT NULL,
	"due_date" date NOT NULL,
	"amount_due" numeric(14, 2) NOT NULL,
	"amount_paid" numeric(14, 2) DEFAULT '0' NOT NULL,
	"paid_date" date,
	"payment_method" text,
	"reference" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "installments_policy_sequence_key" UNIQUE("policy_id","sequence")
);
--> statement-breakpoint
CREATE TABLE "policies" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"policy_number" text NOT NULL,
	"customer_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"policy_type_id" uuid NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"total_premium" numeric(14, 2) NOT NULL,
	"net_premium" numeric(14, 2) NOT NULL,
	"commission_percentage" numeric(5, 2) NOT NULL,
	"payment_frequency" text NOT NULL,
	"custom_installments" integer,
	"insured_item" text DEFAULT '' NOT NULL,
	"sum_insured" numeric(14, 2),
	"deductible" numeric(14, 2),
	"notes" text DEFAULT '' NOT NULL,
	"cancelled_at" date,
	"cancellation_reason" text DEFAULT '' NOT NULL,
	"renewed_from_id" uuid,
	"amount_paid" numeric(14, 2) DEFAULT '0' NOT NULL,
	"installments_paid" integer DEFAULT 0 NOT NULL,
	"total_installments" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "policies_tenant_id_id_key" UNIQUE("tenant_id","id"),
	CONSTRAINT "policies_number_key" UNIQUE("tenant_id","company_id","policy_number","start_date")
);
--> statement-breakpoint
ALTER TABLE "installments" ADD CONSTRAINT "installments_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "installments" ADD CONSTRAINT "installments_policy_fk" FOREIGN KEY ("tenant_id","policy_id") REFERENCES "public"."policies"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policies" ADD CONSTRAINT "policies_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policies" ADD CONSTRAINT "policies_customer_fk" FOREIGN KEY ("tenant_id","customer_id") REFERENCES "public"."customers"("tenant_id","id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policies" ADD CONSTRAINT "policies_company_fk" FOREIGN KEY ("tenant_id","company_id") REFERENCES "public"."companies"("tenant_id","id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policies" ADD CONSTRAINT "policies_policy_type_fk" FOREIGN KEY ("tenant_id","policy_type_id") REFERENCES "public"."policy_types"("tenant_id","id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policies" ADD CONSTRAINT "policies_renewed_from_fk" FOREIGN KEY ("tenant_id","renewed_from_id") REFERENCES "public"."policies"("tenant_id","id") ON DELETE SET NULL ("renewed_from_id") ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "installments_tenant_due_idx" ON "installments" USING btree ("tenant_id","due_date");--> statement-breakpoint
CREATE INDEX "installments_tenant_unpaid_idx" ON "installments" USING btree ("tenant_id","due_date") WHERE status <> 'paid';--> statement-breakpoint
CREATE UNIQUE INDEX "policies_renewed_from_key" ON "policies" USING btree ("renewed_from_id");--> statement-breakpoint
CREATE INDEX "policies_tenant_start_idx" ON "policies" USING btree ("tenant_id","start_date","id");--> statement-breakpoint
CREATE INDEX "policies_tenant_end_idx" ON "policies" USING btree ("tenant_id","end_date");--> statement-breakpoint
CREATE INDEX "policies_tenant_customer_idx" ON "policies" USING btree ("tenant_id","customer_id");--> statement-breakpoint
CREATE INDEX "policies_tenant_company_idx" ON "policies" USING btree ("tenant_id","company_id");--> statement-breakpoint
CREATE INDEX "policies_tenant_type_idx" ON "policies" USING btree ("tenant_id","policy_type_id");
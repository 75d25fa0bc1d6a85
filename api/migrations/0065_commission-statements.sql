CREATE TABLE "commission_statements" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"statement_date" date NOT NULL,
	"total_amount" numeric(14, 2) NOT NULL,
	"file_name" text NOT NULL,
	"file_sha256" text NOT NULL,
	"status" text DEFAULT 'review' NOT NULL,
	"uploaded_by" uuid,
	"accepted_at" timestamp with time zone,
	"accepted_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "commission_statements_tenant_id_id_key" UNIQUE("tenant_id","id"),
	CONSTRAINT "commission_statements_file_key" UNIQUE("tenant_id","company_id","file_sha256")
);
--> statement-breakpoint
CREATE TABLE "statement_lines" (
	"tenant_id" uuid NOT NULL,
	"statement_id" uuid NOT NULL,
	"line_number" integer NOT NULL,
	"raw_policy_number" text DEFAULT '' NOT NULL,
	"insured_name" text DEFAULT '' NOT NULL,
	"premium" numeric(14, 2),
	"paid_commission" numeric(14, 2) NOT NULL,
	"transaction_date" date,
	"transaction_type" text DEFAULT '' NOT NULL,
	"policy_id" uuid,
	"match_method" text,
	"confidence" numeric(3, 2),
	"confirmed" boolean DEFAULT false NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	CONSTRAINT "statement_lines_pkey" PRIMARY KEY("tenant_id","statement_id","line_number")
);
--> statement-breakpoint
CREATE TABLE "statement_mappings" (
	"tenant_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"columns" jsonb NOT NULL,
	CONSTRAINT "statement_mappings_pkey" PRIMARY KEY("tenant_id","company_id")
);
--> statement-breakpoint
CREATE TABLE "insurer_receipts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"policy_id" uuid NOT NULL,
	"statement_id" uuid NOT NULL,
	"line_number" integer NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"received_on" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "insurer_receipts_line_key" UNIQUE("tenant_id","statement_id","line_number")
);
--> statement-breakpoint
ALTER TABLE "commission_statements" ADD CONSTRAINT "commission_statements_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commission_statements" ADD CONSTRAINT "commission_statements_company_fk" FOREIGN KEY ("tenant_id","company_id") REFERENCES "public"."companies"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD CONSTRAINT "statement_lines_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD CONSTRAINT "statement_lines_statement_fk" FOREIGN KEY ("tenant_id","statement_id") REFERENCES "public"."commission_statements"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_mappings" ADD CONSTRAINT "statement_mappings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_mappings" ADD CONSTRAINT "statement_mappings_company_fk" FOREIGN KEY ("tenant_id","company_id") REFERENCES "public"."companies"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insurer_receipts" ADD CONSTRAINT "insurer_receipts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insurer_receipts" ADD CONSTRAINT "insurer_receipts_policy_fk" FOREIGN KEY ("tenant_id","policy_id") REFERENCES "public"."policies"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "commission_statements_company_idx" ON "commission_statements" USING btree ("tenant_id","company_id","statement_date");--> statement-breakpoint
CREATE INDEX "statement_lines_policy_idx" ON "statement_lines" USING btree ("tenant_id","policy_id");--> statement-breakpoint
CREATE INDEX "insurer_receipts_policy_idx" ON "insurer_receipts" USING btree ("tenant_id","policy_id","received_on");--> statement-breakpoint
-- A deleted policy leaves the lines matched to it unmatched; its receipts go with it.
ALTER TABLE "statement_lines" ADD CONSTRAINT "statement_lines_policy_fk" FOREIGN KEY ("tenant_id", "policy_id")
  REFERENCES "policies" ("tenant_id", "id") ON DELETE SET NULL ("policy_id");--> statement-breakpoint
-- A receipt lives as long as its statement's acceptance (the policies module cannot name the table).
ALTER TABLE "insurer_receipts" ADD CONSTRAINT "insurer_receipts_statement_fk" FOREIGN KEY ("tenant_id", "statement_id")
  REFERENCES "commission_statements" ("tenant_id", "id") ON DELETE CASCADE;--> statement-breakpoint
-- A fuzzy match looks for the insurer's policies by premium first.
CREATE INDEX "policies_tenant_company_premium_idx" ON "policies" USING btree ("tenant_id", "company_id", "total_premium");
--> statement-breakpoint
-- Tenant-owned (see 0001_tenant-isolation.sql). An agent who sees only their own book sees no
-- statement: its lines name the insurer's whole business with the agency.
GRANT SELECT, INSERT, UPDATE, DELETE ON commission_statements, statement_lines, statement_mappings, insurer_receipts
  TO coverdesk_app;
--> statement-breakpoint
ALTER TABLE commission_statements ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE commission_statements FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON commission_statements
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);
--> statement-breakpoint
CREATE POLICY own_book ON commission_statements AS RESTRICTIVE USING (app_book_member() IS NULL);
--> statement-breakpoint
ALTER TABLE statement_lines ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE statement_lines FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON statement_lines
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);
--> statement-breakpoint
CREATE POLICY own_book ON statement_lines AS RESTRICTIVE USING (app_book_member() IS NULL);
--> statement-breakpoint
ALTER TABLE statement_mappings ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE statement_mappings FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON statement_mappings
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE insurer_receipts ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE insurer_receipts FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON insurer_receipts
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);
--> statement-breakpoint
CREATE POLICY own_book ON insurer_receipts AS RESTRICTIVE
  USING (app_book_member() IS NULL OR EXISTS (
    SELECT 1 FROM policies p WHERE p.tenant_id = insurer_receipts.tenant_id AND p.id = insurer_receipts.policy_id))
  WITH CHECK (true);
--> statement-breakpoint
-- The platform's read across agencies (0047_platform-read.sql), as on every tenant table.
DO $$
DECLARE
  name text;
BEGIN
  FOREACH name IN ARRAY ARRAY['commission_statements', 'statement_lines', 'statement_mappings', 'insurer_receipts'] LOOP
    EXECUTE format(
      'CREATE POLICY platform_read ON %I FOR SELECT TO %I USING (current_setting(''app.platform_read'', true) = ''on'')',
      name, current_user);
  END LOOP;
END
$$;

-- A statement is read and matched as a job (issue 50): the lines the upload read from its file wait
-- here, with how far the job has come, until every one is saved and matched.
CREATE TABLE "statement_readings" (
	"tenant_id" uuid NOT NULL,
	"statement_id" uuid NOT NULL,
	"lines" jsonb,
	"line_total" integer NOT NULL,
	"lines_done" integer DEFAULT 0 NOT NULL,
	"detail" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "statement_readings_pkey" PRIMARY KEY("tenant_id","statement_id")
);
--> statement-breakpoint
ALTER TABLE "statement_readings" ADD CONSTRAINT "statement_readings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_readings" ADD CONSTRAINT "statement_readings_statement_fk" FOREIGN KEY ("tenant_id","statement_id") REFERENCES "public"."commission_statements"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Tenant-owned (see 0001_tenant-isolation.sql), and hidden from an own-book member as the statement is.
GRANT SELECT, INSERT, UPDATE, DELETE ON statement_readings TO coverdesk_app;
--> statement-breakpoint
ALTER TABLE statement_readings ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE statement_readings FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON statement_readings
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);
--> statement-breakpoint
CREATE POLICY own_book ON statement_readings AS RESTRICTIVE USING (app_book_member() IS NULL);
--> statement-breakpoint
-- The platform's read across agencies (0047_platform-read.sql), as on every tenant table.
DO $$
BEGIN
  EXECUTE format(
    'CREATE POLICY platform_read ON statement_readings FOR SELECT TO %I USING (current_setting(''app.platform_read'', true) = ''on'')',
    current_user);
END
$$;

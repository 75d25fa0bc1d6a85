-- Policies and their instalments are tenant-owned (see 0001_tenant-isolation.sql).
GRANT SELECT, INSERT, UPDATE, DELETE ON policies TO coverdesk_app;
--> statement-breakpoint
ALTER TABLE policies ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE policies FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON policies
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON installments TO coverdesk_app;
--> statement-breakpoint
ALTER TABLE installments ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE installments FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON installments
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);

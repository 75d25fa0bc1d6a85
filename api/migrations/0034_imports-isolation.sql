-- Imports and the agencies' saved column choices are tenant-owned (see 0001_tenant-isolation.sql).
GRANT SELECT, INSERT, UPDATE, DELETE ON imports, import_mappings TO coverdesk_app;
--> statement-breakpoint
ALTER TABLE imports ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE imports FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON imports
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE import_mappings ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE import_mappings FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON import_mappings
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);

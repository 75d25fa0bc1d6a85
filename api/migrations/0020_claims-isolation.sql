-- Claims and their timelines are tenant-owned (see 0001_tenant-isolation.sql).
GRANT SELECT, INSERT, UPDATE, DELETE ON claims TO coverdesk_app;
--> statement-breakpoint
ALTER TABLE claims ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE claims FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON claims
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON claim_events TO coverdesk_app;
--> statement-breakpoint
ALTER TABLE claim_events ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE claim_events FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON claim_events
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);

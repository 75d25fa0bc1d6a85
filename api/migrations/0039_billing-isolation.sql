-- The billing history and the cards recorded with the manual provider are tenant-owned (see
-- 0001_tenant-isolation.sql). The history is only ever added to, so the tenant role may not change it.
-- paddle_events stays a platform table: a webhook is stored before its agency is known.
GRANT SELECT, INSERT ON billing_events TO coverdesk_app;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON billing_payment_methods TO coverdesk_app;
--> statement-breakpoint
ALTER TABLE billing_events ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE billing_events FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON billing_events
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE billing_payment_methods ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE billing_payment_methods FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON billing_payment_methods
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);

-- Meetings are tenant-owned (see 0001_tenant-isolation.sql).
GRANT SELECT, INSERT, UPDATE, DELETE ON meetings TO coverdesk_app;
--> statement-breakpoint
ALTER TABLE meetings ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE meetings FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON meetings
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);
--> statement-breakpoint
-- The customer and the lead met, within the same agency; deleting either clears only that link.
ALTER TABLE meetings ADD CONSTRAINT meetings_customer_fk FOREIGN KEY (tenant_id, customer_id)
  REFERENCES customers (tenant_id, id) ON DELETE SET NULL (customer_id);
--> statement-breakpoint
ALTER TABLE meetings ADD CONSTRAINT meetings_lead_fk FOREIGN KEY (tenant_id, lead_id)
  REFERENCES leads (tenant_id, id) ON DELETE SET NULL (lead_id);

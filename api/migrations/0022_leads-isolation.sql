-- Leads and their timeline are tenant-owned (see 0001_tenant-isolation.sql).
GRANT SELECT, INSERT, UPDATE, DELETE ON leads TO coverdesk_app;
--> statement-breakpoint
ALTER TABLE leads ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE leads FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON leads
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON lead_activities TO coverdesk_app;
--> statement-breakpoint
ALTER TABLE lead_activities ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE lead_activities FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON lead_activities
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);
--> statement-breakpoint
-- The interest and the customer a lead became, within the same agency; deleting the type or the
-- customer clears only that link, never the lead's tenant.
ALTER TABLE leads ADD CONSTRAINT leads_policy_type_fk FOREIGN KEY (tenant_id, policy_type_id)
  REFERENCES policy_types (tenant_id, id) ON DELETE SET NULL (policy_type_id);
--> statement-breakpoint
ALTER TABLE leads ADD CONSTRAINT leads_customer_fk FOREIGN KEY (tenant_id, customer_id)
  REFERENCES customers (tenant_id, id) ON DELETE SET NULL (customer_id);
--> statement-breakpoint
-- Users are platform rows that tenant transactions cannot read. Leads name their assignee and the
-- author of each activity, so this view (running with its owner's rights) shows a transaction the
-- users of its own agency only: ids, names and emails, nothing of their credentials.
CREATE VIEW agency_users WITH (security_barrier) AS
  SELECT id, tenant_id, first_name, last_name, email
  FROM users
  WHERE tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid;
--> statement-breakpoint
GRANT SELECT ON agency_users TO coverdesk_app;
--> statement-breakpoint
-- A lead's closing moment follows its status: set when it moves to won or lost, cleared when it
-- reopens. `app.activity_at` lets the demo agency date its history; requests leave it unset (now).
CREATE FUNCTION lead_status_moment() RETURNS timestamptz LANGUAGE sql STABLE AS $$
  SELECT coalesce(nullif(current_setting('app.activity_at', true), '')::timestamptz, now())
$$;
--> statement-breakpoint
CREATE FUNCTION leads_track_closing() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status NOT IN ('won', 'lost') THEN
    NEW.closed_at := NULL;
  ELSIF TG_OP = 'INSERT' OR OLD.status IS DISTINCT FROM NEW.status OR NEW.closed_at IS NULL THEN
    NEW.closed_at := lead_status_moment();
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER leads_track_closing BEFORE INSERT OR UPDATE OF status ON leads
  FOR EACH ROW EXECUTE FUNCTION leads_track_closing();
--> statement-breakpoint
-- Row ids are UUIDv7 like every id the application makes: 48 bits of milliseconds, then random.
CREATE FUNCTION lead_activity_id() RETURNS uuid LANGUAGE sql VOLATILE AS $$
  SELECT encode(
    set_bit(set_bit(
      overlay(uuid_send(gen_random_uuid())
        PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
        FROM 1 FOR 6),
      52, 1), 53, 1),
    'hex')::uuid
$$;
--> statement-breakpoint
-- Every status a lead takes is on its timeline, whatever changed it (a form, the board, a
-- conversion), with who (`app.user_id`, set by the request) and when.
CREATE FUNCTION leads_record_status() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' OR OLD.status IS DISTINCT FROM NEW.status THEN
    INSERT INTO lead_activities (id, tenant_id, lead_id, activity_type, from_status, to_status, user_id, occurred_at)
    VALUES (
      lead_activity_id(), NEW.tenant_id, NEW.id, 'status_change',
      CASE WHEN TG_OP = 'UPDATE' THEN OLD.status END, NEW.status,
      nullif(current_setting('app.user_id', true), '')::uuid, lead_status_moment()
    );
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER leads_record_status AFTER INSERT OR UPDATE OF status ON leads
  FOR EACH ROW EXECUTE FUNCTION leads_record_status();

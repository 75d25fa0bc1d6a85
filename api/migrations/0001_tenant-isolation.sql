-- Row-level security is the second wall around each agency's data (the first: every query filters on
-- tenant_id). Tenant-scoped transactions switch to the coverdesk_app role, which cannot bypass RLS,
-- and set app.tenant_id; without that setting the policies below match no rows.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'coverdesk_app') THEN
    CREATE ROLE coverdesk_app NOLOGIN NOBYPASSRLS;
  END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
  -- Another database in the same cluster created the role at the same moment.
  NULL;
END
$$;
--> statement-breakpoint
DO $$
BEGIN
  -- A non-superuser owner must be a member of coverdesk_app to switch to it.
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    EXECUTE format('GRANT coverdesk_app TO %I', current_user);
  END IF;
END
$$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO coverdesk_app;
--> statement-breakpoint
-- Inside a tenant transaction only tenant-owned tables and the plan catalogue are reachable; platform
-- tables (users, tokens, outbox) stay with the accounts module.
GRANT SELECT ON plans TO coverdesk_app;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON subscriptions TO coverdesk_app;
--> statement-breakpoint
ALTER TABLE subscriptions ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE subscriptions FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON subscriptions
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);

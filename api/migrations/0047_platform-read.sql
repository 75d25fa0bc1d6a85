-- The admin portal's figures read every agency's rows at once (subscriptions, billing events, record
-- counts, sign-ins). Row-level security is forced on tenant tables, so without this the role the app
-- connects as sees no tenant row outside a tenant transaction unless it is a superuser. Each table with
-- the tenant_isolation policy (0001_tenant-isolation.sql) gets a second, read-only policy for the
-- connecting role alone: it shows every row in a transaction that set app.platform_read (see
-- readAcrossAgencies in src/db/platform-read.ts). Tenant transactions run as coverdesk_app, to which
-- this policy does not apply, so their own reads and their plans are unchanged.
DO $$
DECLARE
  tenant_table record;
BEGIN
  FOR tenant_table IN
    SELECT tablename FROM pg_policies WHERE schemaname = 'public' AND policyname = 'tenant_isolation'
  LOOP
    EXECUTE format(
      'CREATE POLICY platform_read ON %I FOR SELECT TO %I USING (current_setting(''app.platform_read'', true) = ''on'')',
      tenant_table.tablename,
      current_user
    );
  END LOOP;
END
$$;

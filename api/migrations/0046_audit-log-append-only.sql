-- The audit log is only ever added to. The tenant role reads and adds its own agency's rows (see
-- 0001_tenant-isolation.sql); a trigger refuses every update and delete, whichever role asks, so
-- not even the connecting role can rewrite what happened.
GRANT SELECT, INSERT ON audit_log TO coverdesk_app;
--> statement-breakpoint
ALTER TABLE audit_log ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE audit_log FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON audit_log
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);
--> statement-breakpoint
-- Sign-ins, platform settings and other admin actions are recorded outside any agency's transaction,
-- on the role the app connects as (the one running this migration). Row-level security is forced on
-- it too, so it gets a policy of its own to add rows; it reads them through the platform_read policy.
DO $$
BEGIN
  EXECUTE format('CREATE POLICY platform_audit ON audit_log FOR INSERT TO %I WITH CHECK (true)', current_user);
END
$$;
--> statement-breakpoint
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the audit log is append-only' USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
--> statement-breakpoint
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
--> statement-breakpoint
-- Each existing agency's first user registered it.
UPDATE users SET is_owner = true
  WHERE id IN (SELECT DISTINCT ON (tenant_id) id FROM users ORDER BY tenant_id, date_joined, id);

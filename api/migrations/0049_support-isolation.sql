-- Support tickets, their messages and attachments are tenant-owned (see 0001_tenant-isolation.sql).
-- A ticket from the public contact form has no agency: the tenant policy matches no tenant for it.
-- The platform admins' inbox reads and answers every agency's tickets and the contact form's on the
-- connecting role (the role running the migrations), so a second policy names that role: row-level
-- security is forced on the table owner too, and without it a non-superuser owner would see none.
-- Messages and attachments are only ever added.
GRANT SELECT, INSERT, UPDATE ON support_tickets TO coverdesk_app;
--> statement-breakpoint
GRANT SELECT, INSERT ON support_messages, support_attachments TO coverdesk_app;
--> statement-breakpoint
ALTER TABLE support_tickets ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE support_tickets FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON support_tickets
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE support_messages ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE support_messages FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON support_messages
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE support_attachments ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE support_attachments FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON support_attachments
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);
--> statement-breakpoint
DO $$
BEGIN
  EXECUTE format('CREATE POLICY platform_support ON support_tickets TO %I USING (true) WITH CHECK (true)', current_user);
  EXECUTE format('CREATE POLICY platform_support ON support_messages TO %I USING (true) WITH CHECK (true)', current_user);
  EXECUTE format('CREATE POLICY platform_support ON support_attachments TO %I USING (true) WITH CHECK (true)', current_user);
END
$$;
--> statement-breakpoint
-- The contact form's messages so far join the support inbox as tickets without an agency; the ones
-- already handled arrive resolved.
INSERT INTO support_tickets (id, requester_name, requester_email, company, subject, category, status, created_at, updated_at, last_reply_at)
  SELECT id, name, email, company, subject, 'other', CASE WHEN handled_at IS NULL THEN 'open' ELSE 'resolved' END,
         created_at, coalesce(handled_at, created_at), created_at
  FROM contact_messages;
--> statement-breakpoint
INSERT INTO support_messages (id, ticket_id, author_name, is_staff, body, created_at)
  SELECT gen_random_uuid(), id, name, false, message, created_at FROM contact_messages;

-- Support tickets, their messages and attachments are tenant-owned (see 0001_tenant-isolation.sql).
-- A ticket from the public contact form has no agency: the tenant policy matches no tenant for it.
-- A ticket from the contact form belongs to no agency: the role the app connects as (the role running
-- the migrations) opens and answers it outside any tenant transaction, so a policy admits that role
-- to those rows alone. The admins' inbox reads every agency's tickets through platform_read.
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
DECLARE
  support_table text;
BEGIN
  FOREACH support_table IN ARRAY ARRAY['support_tickets', 'support_messages', 'support_attachments'] LOOP
    EXECUTE format(
      'CREATE POLICY contact_form ON %I TO %I USING (tenant_id IS NULL) WITH CHECK (tenant_id IS NULL)',
      support_table, current_user);
    EXECUTE format(
      'CREATE POLICY platform_read ON %I FOR SELECT TO %I USING (current_setting(''app.platform_read'', true) = ''on'')',
      support_table, current_user);
  END LOOP;
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

-- The admin's system-health screen counts reminder emails sent, failed and retrying across every
-- agency. Only reading, only outside a tenant transaction (never as coverdesk_app), and only where
-- the transaction says so with app.platform_read (`readAcrossTenants` in api/src/db/tenant.ts): a
-- query that forgets its tenant filter still sees nothing.
CREATE POLICY platform_read ON notification_history FOR SELECT
  USING (current_setting('app.platform_read', true) = 'on' AND current_user <> 'coverdesk_app');

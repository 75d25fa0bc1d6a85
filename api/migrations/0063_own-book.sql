-- An agency may show its agents only their own book (tenants.agents_see_own_book). A tenant
-- transaction of such an agent sets app.book_member to the agent's id (db/tenant.ts); everyone else's
-- leaves it empty, and these policies then pass every row on their first test.
CREATE FUNCTION app_book_member() RETURNS uuid
  LANGUAGE sql STABLE PARALLEL SAFE
  AS $$ SELECT nullif(current_setting('app.book_member', true), '')::uuid $$;
--> statement-breakpoint
-- The customers assigned to the member.
CREATE POLICY own_book ON customers AS RESTRICTIVE
  USING (app_book_member() IS NULL OR assigned_to = app_book_member())
  WITH CHECK (true);
--> statement-breakpoint
-- What hangs off them: their policies, those policies' instalments and claims.
CREATE POLICY own_book ON policies AS RESTRICTIVE
  USING (app_book_member() IS NULL OR EXISTS (
    SELECT 1 FROM customers c WHERE c.tenant_id = policies.tenant_id AND c.id = policies.customer_id))
  WITH CHECK (true);
--> statement-breakpoint
CREATE POLICY own_book ON installments AS RESTRICTIVE
  USING (app_book_member() IS NULL OR EXISTS (
    SELECT 1 FROM policies p WHERE p.tenant_id = installments.tenant_id AND p.id = installments.policy_id))
  WITH CHECK (true);
--> statement-breakpoint
CREATE POLICY own_book ON claims AS RESTRICTIVE
  USING (app_book_member() IS NULL OR EXISTS (
    SELECT 1 FROM policies p WHERE p.tenant_id = claims.tenant_id AND p.id = claims.policy_id))
  WITH CHECK (true);
--> statement-breakpoint
-- Leads assigned to the member, or converted into one of their customers.
CREATE POLICY own_book ON leads AS RESTRICTIVE
  USING (app_book_member() IS NULL OR assigned_user_id = app_book_member() OR EXISTS (
    SELECT 1 FROM customers c WHERE c.tenant_id = leads.tenant_id AND c.id = leads.customer_id))
  WITH CHECK (true);
--> statement-breakpoint
-- Meetings the member owns, or with one of their customers or leads.
CREATE POLICY own_book ON meetings AS RESTRICTIVE
  USING (app_book_member() IS NULL OR owner_id = app_book_member()
    OR EXISTS (SELECT 1 FROM customers c WHERE c.tenant_id = meetings.tenant_id AND c.id = meetings.customer_id)
    OR EXISTS (SELECT 1 FROM leads l WHERE l.tenant_id = meetings.tenant_id AND l.id = meetings.lead_id))
  WITH CHECK (true);

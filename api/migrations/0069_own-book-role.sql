-- The own-book policies (0063_own-book.sql, 0064_own-book-totals.sql, 0065_commission-statements.sql,
-- 0067_documents-isolation.sql) applied to every tenant transaction, and their first test,
-- `app_book_member() IS NULL`, is a setting the planner cannot read when it plans: it guessed that
-- they kept one row in two hundred and, for an agency of 100,000 policies, joined customers, policies
-- and instalments in nested loops instead of reading their indexes (the dashboard took six seconds).
-- They now apply to a role of their own, coverdesk_book, which only a transaction showing a member
-- their own book switches to (db/tenant.ts): the rest of the agency's statements are planned with no
-- trace of them. coverdesk_book is a member of coverdesk_app, so it has the same grants and the same
-- tenant isolation; with no member set it sees nothing.
--
-- Each policy now names the rows it keeps as an uncorrelated subquery, read under the same policies
-- (the member's customers, then their policies): PostgreSQL works the member's book out once per
-- statement and looks each row up in it, where the correlated EXISTS of before looked every row of
-- the agency up in an index, one by one (an agent's dashboard read 247,000 buffers at 20,000
-- policies). Row-level security keeps the subqueries to the agency.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'coverdesk_book') THEN
    CREATE ROLE coverdesk_book NOLOGIN NOBYPASSRLS;
  END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
  -- Another database in the same cluster created the role at the same moment.
  NULL;
END
$$;
--> statement-breakpoint
GRANT coverdesk_app TO coverdesk_book;
--> statement-breakpoint
DO $$
BEGIN
  -- A non-superuser owner must be a member of coverdesk_book to switch to it.
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    EXECUTE format('GRANT coverdesk_book TO %I', current_user);
  END IF;
END
$$;
--> statement-breakpoint
ALTER POLICY own_book ON customers TO coverdesk_book
  USING (assigned_to = app_book_member());
--> statement-breakpoint
ALTER POLICY own_book ON policies TO coverdesk_book
  USING (customer_id IN (SELECT id FROM customers));
--> statement-breakpoint
ALTER POLICY own_book ON installments TO coverdesk_book
  USING (policy_id IN (SELECT id FROM policies));
--> statement-breakpoint
ALTER POLICY own_book ON claims TO coverdesk_book
  USING (policy_id IN (SELECT id FROM policies));
--> statement-breakpoint
ALTER POLICY own_book ON leads TO coverdesk_book
  USING (assigned_user_id = app_book_member() OR customer_id IN (SELECT id FROM customers));
--> statement-breakpoint
ALTER POLICY own_book ON meetings TO coverdesk_book
  USING (owner_id = app_book_member()
    OR customer_id IN (SELECT id FROM customers)
    OR lead_id IN (SELECT id FROM leads));
--> statement-breakpoint
ALTER POLICY own_book ON policy_months TO coverdesk_book
  USING (policy_id IN (SELECT id FROM policies));
--> statement-breakpoint
ALTER POLICY own_book ON customer_totals TO coverdesk_book
  USING (customer_id IN (SELECT id FROM customers));
--> statement-breakpoint
-- Statements are the agency's reconciliation with its insurers, never part of one member's book.
ALTER POLICY own_book ON commission_statements TO coverdesk_book USING (false);
--> statement-breakpoint
ALTER POLICY own_book ON statement_lines TO coverdesk_book USING (false);
--> statement-breakpoint
ALTER POLICY own_book ON insurer_receipts TO coverdesk_book
  USING (policy_id IN (SELECT id FROM policies));
--> statement-breakpoint
ALTER POLICY own_book ON documents TO coverdesk_book
  USING (customer_id IN (SELECT id FROM customers) OR lead_id IN (SELECT id FROM leads));

-- The history months of 0016_history-months-follow.sql by member, as 0080_member-book-totals.sql keeps
-- the book totals: an agent kept to their own book read book_months as a view summing the months of
-- every policy of theirs (0064_own-book-totals.sql), on every dashboard. member_book_months is
-- book_months with the member as one more key, kept by book_months_follow's very upsert.

CREATE TABLE member_book_months (LIKE book_months INCLUDING DEFAULTS, member_id uuid NOT NULL);
--> statement-breakpoint
ALTER TABLE member_book_months ADD CONSTRAINT member_book_months_pkey
  PRIMARY KEY (tenant_id, member_id, month, company_id);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON member_book_months TO coverdesk_app;
--> statement-breakpoint
ALTER TABLE member_book_months ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE member_book_months FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON member_book_months
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);
--> statement-breakpoint
CREATE POLICY own_book ON member_book_months AS RESTRICTIVE TO coverdesk_book
  USING (member_id = app_book_member()) WITH CHECK (true);
--> statement-breakpoint
-- The platform's read across agencies (0047_platform-read.sql), as on every tenant table.
DO $$
BEGIN
  EXECUTE format(
    'CREATE POLICY platform_read ON member_book_months FOR SELECT TO %I USING (current_setting(''app.platform_read'', true) = ''on'')',
    current_user);
END
$$;
--> statement-breakpoint
-- book_months_follow's upsert, into the agency's months or, `by_member`, the members' (whose `changes`
-- carry member_id).
CREATE FUNCTION book_months_upsert(changes text, by_member boolean) RETURNS text LANGUAGE sql STABLE
AS $fn$ SELECT format($upsert$
    INSERT INTO %1$I AS book
    SELECT * FROM (
      SELECT tenant_id, company_id, month,
        sum(sign * in_force)::integer AS in_force,
        sum(sign * premium_in_force) AS premium_in_force,
        sum(sign * new_policies)::integer AS new_policies,
        sum(sign * expected_commission) AS expected_commission,
        sum(sign * renewed)::integer AS renewed,
        sum(sign * ended_open)::integer AS ended_open,
        sum(sign * cancelled)::integer AS cancelled,
        sum(sign * received_full_policy) AS received_full_policy,
        sum(sign * received_pro_rata) AS received_pro_rata%3$s
      FROM (%2$s) change
      GROUP BY tenant_id, month, company_id%3$s
    ) moved
    WHERE (in_force, premium_in_force, new_policies, expected_commission, renewed, ended_open, cancelled,
        received_full_policy, received_pro_rata)
      IS DISTINCT FROM (0, 0, 0, 0, 0, 0, 0, 0, 0)
    ORDER BY tenant_id, month, company_id%3$s
    ON CONFLICT ON CONSTRAINT %4$I DO UPDATE SET
      in_force = book.in_force + excluded.in_force,
      premium_in_force = book.premium_in_force + excluded.premium_in_force,
      new_policies = book.new_policies + excluded.new_policies,
      expected_commission = book.expected_commission + excluded.expected_commission,
      renewed = book.renewed + excluded.renewed,
      ended_open = book.ended_open + excluded.ended_open,
      cancelled = book.cancelled + excluded.cancelled,
      received_full_policy = book.received_full_policy + excluded.received_full_policy,
      received_pro_rata = book.received_pro_rata + excluded.received_pro_rata
  $upsert$,
  CASE WHEN by_member THEN 'member_book_months' ELSE 'book_months' END,
  changes,
  CASE WHEN by_member THEN ', member_id' ELSE '' END,
  CASE WHEN by_member THEN 'member_book_months_pkey' ELSE 'book_months_pkey' END) $fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION book_months_follow() RETURNS trigger LANGUAGE plpgsql SET search_path = public AS $$
DECLARE
  changes text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT added.*, 1 AS sign FROM added'
    ELSE 'SELECT removed.*, -1 AS sign FROM removed'
  END;
BEGIN
  EXECUTE book_months_upsert(changes, false);
  -- A policy's months name it by policy_id, as an instalment does.
  EXECUTE book_months_upsert(book_member_changes('policy_months', changes), true);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A deleted policy's months went after it (policy_months_follow_policies), when nothing named its
-- customer any more: they go first, with its instalments (0080_member-book-totals.sql).
CREATE OR REPLACE FUNCTION policy_instalments_go_first() RETURNS trigger LANGUAGE plpgsql
SET search_path = public AS $$
BEGIN
  DELETE FROM installments WHERE tenant_id = OLD.tenant_id AND policy_id = OLD.id;
  DELETE FROM policy_months WHERE tenant_id = OLD.tenant_id AND policy_id = OLD.id;
  RETURN OLD;
END
$$;
--> statement-breakpoint
-- 0080_member-book-totals.sql's reassignment, moving the policies' months too.
CREATE OR REPLACE FUNCTION member_totals_follow_customers() RETURNS trigger LANGUAGE plpgsql
SET search_path = public AS $$
DECLARE
  -- The rows of `rows` (joined to the customer's policies as `policies`) each customer took from the
  -- member who had them, negatively, and gave the one who has them now.
  moved text := $moved$
    SELECT %1$s.*, -1 AS sign, removed.assigned_to AS member_id
    FROM removed JOIN added ON added.id = removed.id
    JOIN policies ON policies.tenant_id = removed.tenant_id AND policies.customer_id = removed.id %2$s
    WHERE removed.assigned_to IS DISTINCT FROM added.assigned_to AND removed.assigned_to IS NOT NULL
    UNION ALL
    SELECT %1$s.*, 1, added.assigned_to
    FROM removed JOIN added ON added.id = removed.id
    JOIN policies ON policies.tenant_id = added.tenant_id AND policies.customer_id = added.id %2$s
    WHERE removed.assigned_to IS DISTINCT FROM added.assigned_to AND added.assigned_to IS NOT NULL $moved$;
  moved_policies text := format(moved, 'policies', '');
  moved_instalments text := format(moved, 'installments', 'JOIN installments
    ON installments.tenant_id = policies.tenant_id AND installments.policy_id = policies.id');
  moved_months text := format(moved, 'policy_months', 'JOIN policy_months
    ON policy_months.tenant_id = policies.tenant_id AND policy_months.policy_id = policies.id');
BEGIN
  IF NOT EXISTS (SELECT 1 FROM removed JOIN added ON added.id = removed.id
      WHERE removed.assigned_to IS DISTINCT FROM added.assigned_to) THEN
    RETURN NULL;
  END IF;
  EXECUTE policy_book_upsert(moved_policies, true);
  EXECUTE policy_type_totals_upsert(moved_policies, true);
  EXECUTE calendar_day_totals_upsert('policies', moved_policies, true);
  EXECUTE calendar_day_totals_upsert('installments', moved_instalments, true);
  EXECUTE book_months_upsert(moved_months, true);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The members' months of the books already written.
DO $$
BEGIN
  EXECUTE book_months_upsert(
    book_member_changes('policy_months', 'SELECT policy_months.*, 1 AS sign FROM policy_months'), true);
END
$$;
--> statement-breakpoint
CREATE OR REPLACE VIEW own_book.book_months WITH (security_invoker = true) AS
  SELECT tenant_id, company_id, month, in_force, premium_in_force, new_policies, expected_commission, renewed,
    ended_open, cancelled, received_full_policy, received_pro_rata
  FROM public.member_book_months WHERE member_id = app_book_member();

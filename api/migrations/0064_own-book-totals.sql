-- An agent who sees only their own book (0063_own-book.sql) reads the kept totals of their own book.
-- The totals keyed by policy or customer (policy_months, customer_totals) keep the agent's rows, as
-- the policies and customers do. The totals summed over the whole book (policy_book_totals,
-- policy_type_totals, calendar_day_totals, book_months) have views of the same names in the schema
-- own_book, summing the same way over the rows the agent sees; an own-book transaction puts own_book
-- first on its search_path (db/tenant.ts), so every reader reads them unchanged. The functions that
-- write the totals name the tables of public whoever runs them.

CREATE POLICY own_book ON policy_months AS RESTRICTIVE FOR SELECT
  USING (app_book_member() IS NULL OR EXISTS (
    SELECT 1 FROM policies p WHERE p.tenant_id = policy_months.tenant_id AND p.id = policy_months.policy_id));
--> statement-breakpoint
CREATE POLICY own_book ON customer_totals AS RESTRICTIVE FOR SELECT
  USING (app_book_member() IS NULL OR EXISTS (
    SELECT 1 FROM customers c WHERE c.tenant_id = customer_totals.tenant_id AND c.id = customer_totals.customer_id));
--> statement-breakpoint
-- The groups a statement's rows (`changes`, with a sign) move in the book totals: the upsert of
-- 0056_cancelled-instalments.sql without its insert, so the own-book view sums the same way.
CREATE FUNCTION policy_book_groups(changes text) RETURNS text LANGUAGE sql STABLE
AS $fn$ SELECT format($groups$
      SELECT tenant_id, company_id, start_date, end_date, standing,
        sum(sign)::integer AS policies,
        sum(sign * total_premium) AS total_premium,
        sum(sign * expected) AS expected_commission,
        sum(sign * policy_received_commission('full_policy', expected, amount_paid, earned))
          AS received_full_policy,
        sum(sign * policy_received_commission('pro_rata', expected, amount_paid, earned))
          AS received_pro_rata,
        sum(sign * net_premium) AS net_premium,
        sum(sign * amount_paid) AS amount_paid
      FROM (
        SELECT change.*,
          policy_standing(cancelled_at, renewed_to_id) AS standing,
          policy_earned_commission(net_premium, commission_percentage, total_premium, earned) AS expected
        FROM (
          SELECT changed.*,
            policy_earned_premium(total_premium, start_date, end_date, cancelled_at, cancellation_refund)
              AS earned
          FROM (%s) changed
        ) change
      ) changed
      GROUP BY tenant_id, company_id, start_date, end_date, standing
  $groups$, changes) $fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION policy_book_upsert(changes text) RETURNS text LANGUAGE sql STABLE
AS $fn$ SELECT format($upsert$
    INSERT INTO policy_book_totals AS book
    SELECT * FROM (%s) moved
    WHERE (policies, total_premium, expected_commission, received_full_policy, received_pro_rata,
        net_premium, amount_paid)
      IS DISTINCT FROM (0, 0, 0, 0, 0, 0, 0)
    -- Groups locked in one order, so two statements that move several groups cannot deadlock.
    ORDER BY tenant_id, company_id, start_date, end_date, standing
    ON CONFLICT ON CONSTRAINT policy_book_totals_pkey DO UPDATE SET
      policies = book.policies + excluded.policies,
      total_premium = book.total_premium + excluded.total_premium,
      expected_commission = book.expected_commission + excluded.expected_commission,
      received_full_policy = book.received_full_policy + excluded.received_full_policy,
      received_pro_rata = book.received_pro_rata + excluded.received_pro_rata,
      net_premium = book.net_premium + excluded.net_premium,
      amount_paid = book.amount_paid + excluded.amount_paid
  $upsert$, policy_book_groups(changes)) $fn$;
--> statement-breakpoint
-- The groups of the type totals (the upsert of 0044_kept-totals-catch-up.sql without its insert).
CREATE FUNCTION policy_type_totals_groups(changes text) RETURNS text LANGUAGE sql STABLE
AS $fn$ SELECT format($groups$
      SELECT tenant_id, policy_type_id, start_date, end_date,
        policy_standing(cancelled_at, renewed_to_id) AS standing,
        sum(sign)::integer AS policies,
        sum(sign * total_premium) AS total_premium
      FROM (%s) change
      GROUP BY tenant_id, policy_type_id, start_date, end_date, policy_standing(cancelled_at, renewed_to_id)
  $groups$, changes) $fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION policy_type_totals_upsert(changes text) RETURNS text LANGUAGE sql STABLE
AS $fn$ SELECT format($upsert$
    INSERT INTO policy_type_totals AS kept
    SELECT * FROM (%s) moved
    WHERE (policies, total_premium) IS DISTINCT FROM (0, 0)
    -- Groups locked in one order, so two statements that move several groups cannot deadlock.
    ORDER BY tenant_id, policy_type_id, start_date, end_date, standing
    ON CONFLICT ON CONSTRAINT policy_type_totals_pkey DO UPDATE SET
      policies = kept.policies + excluded.policies,
      total_premium = kept.total_premium + excluded.total_premium
  $upsert$, policy_type_totals_groups(changes)) $fn$;
--> statement-breakpoint
-- The days the calendar counts for the policies or instalments (`table_name`) that `changes` selects
-- (the upsert of 0056_cancelled-instalments.sql without its insert).
CREATE FUNCTION calendar_day_totals_groups(table_name text, changes text) RETURNS text LANGUAGE sql STABLE
AS $fn$ SELECT format($groups$
      SELECT tenant_id, kind, day, sum(sign)::integer AS records, sum(sign * amount)::numeric AS amount
      FROM (%s) counted
      GROUP BY tenant_id, kind, day
  $groups$, format(CASE table_name
    WHEN 'policies' THEN $counted$
      SELECT tenant_id, 'renewal'::text AS kind, end_date AS day, sign, 0 AS amount FROM (%s) change
      WHERE cancelled_at IS NULL AND renewed_to_id IS NULL $counted$
    ELSE $counted$
      SELECT tenant_id, 'installment'::text AS kind, due_date AS day, sign, amount_due - amount_paid AS amount
      FROM (%s) change WHERE status IN ('pending', 'partially_paid') $counted$
  END, changes)) $fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION calendar_day_totals_upsert(table_name text, changes text) RETURNS text LANGUAGE sql STABLE
AS $fn$ SELECT format($upsert$
    INSERT INTO calendar_day_totals AS kept
    SELECT * FROM (%s) moved
    WHERE (records, amount) IS DISTINCT FROM (0, 0)
    -- Days locked in one order, so two statements that move several days cannot deadlock.
    ORDER BY tenant_id, kind, day
    ON CONFLICT ON CONSTRAINT calendar_day_totals_pkey DO UPDATE SET
      records = kept.records + excluded.records,
      amount = kept.amount + excluded.amount
  $upsert$, calendar_day_totals_groups(table_name, changes)) $fn$;
--> statement-breakpoint
ALTER FUNCTION policy_book_follow() SET search_path = public;
--> statement-breakpoint
ALTER FUNCTION policy_type_totals_follow() SET search_path = public;
--> statement-breakpoint
ALTER FUNCTION calendar_day_totals_follow() SET search_path = public;
--> statement-breakpoint
ALTER FUNCTION book_months_follow() SET search_path = public;
--> statement-breakpoint
ALTER FUNCTION policy_months_follow_policies() SET search_path = public;
--> statement-breakpoint
ALTER FUNCTION policy_months_follow_installments() SET search_path = public;
--> statement-breakpoint
ALTER FUNCTION customer_totals_follow() SET search_path = public;
--> statement-breakpoint
ALTER FUNCTION kept_totals_catch_up(uuid[]) SET search_path = public;
--> statement-breakpoint
ALTER FUNCTION policy_months_refresh(uuid[]) SET search_path = public;
--> statement-breakpoint
ALTER FUNCTION customer_totals_refresh(uuid[], uuid[]) SET search_path = public;
--> statement-breakpoint
CREATE SCHEMA own_book;
--> statement-breakpoint
GRANT USAGE ON SCHEMA own_book TO coverdesk_app;
--> statement-breakpoint
-- Each sums every row the caller sees, as the triggers sum the rows a statement changed.
CREATE FUNCTION own_book.policy_book_rows() RETURNS SETOF public.policy_book_totals
LANGUAGE plpgsql STABLE SET search_path = public AS $$
BEGIN
  RETURN QUERY EXECUTE policy_book_groups('SELECT policies.*, 1 AS sign FROM policies');
END
$$;
--> statement-breakpoint
CREATE VIEW own_book.policy_book_totals WITH (security_invoker = true) AS
  SELECT * FROM own_book.policy_book_rows();
--> statement-breakpoint
CREATE FUNCTION own_book.policy_type_rows() RETURNS SETOF public.policy_type_totals
LANGUAGE plpgsql STABLE SET search_path = public AS $$
BEGIN
  RETURN QUERY EXECUTE policy_type_totals_groups('SELECT policies.*, 1 AS sign FROM policies');
END
$$;
--> statement-breakpoint
CREATE VIEW own_book.policy_type_totals WITH (security_invoker = true) AS
  SELECT * FROM own_book.policy_type_rows();
--> statement-breakpoint
CREATE FUNCTION own_book.calendar_day_rows() RETURNS SETOF public.calendar_day_totals
LANGUAGE plpgsql STABLE SET search_path = public AS $$
BEGIN
  RETURN QUERY EXECUTE calendar_day_totals_groups('policies', 'SELECT policies.*, 1 AS sign FROM policies');
  RETURN QUERY EXECUTE calendar_day_totals_groups('installments',
    'SELECT installments.*, 1 AS sign FROM installments');
END
$$;
--> statement-breakpoint
CREATE VIEW own_book.calendar_day_totals WITH (security_invoker = true) AS
  SELECT * FROM own_book.calendar_day_rows();
--> statement-breakpoint
-- book_months is the sum of policy_months by insurer and month (book_months_follow of
-- 0016_history-months-follow.sql), here of the policies' months the caller sees.
CREATE VIEW own_book.book_months WITH (security_invoker = true) AS
  SELECT tenant_id, company_id, month,
    sum(in_force)::integer AS in_force,
    sum(premium_in_force) AS premium_in_force,
    sum(new_policies)::integer AS new_policies,
    sum(expected_commission) AS expected_commission,
    sum(renewed)::integer AS renewed,
    sum(ended_open)::integer AS ended_open,
    sum(cancelled)::integer AS cancelled,
    sum(received_full_policy) AS received_full_policy,
    sum(received_pro_rata) AS received_pro_rata
  FROM public.policy_months
  GROUP BY tenant_id, company_id, month;
--> statement-breakpoint
GRANT SELECT ON ALL TABLES IN SCHEMA own_book TO coverdesk_app;

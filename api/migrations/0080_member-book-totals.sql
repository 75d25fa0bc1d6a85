-- An agent kept to their own book read the book totals through the views of 0064_own-book-totals.sql,
-- which summed every policy and instalment of their book on each read: at 10,000 policies the
-- dashboard took seven seconds where the owner's, reading the kept totals, took a tenth of one. Each
-- member's share of the book totals is now kept as the agency's is: member_book_totals,
-- member_type_totals and member_calendar_day_totals are the agency's tables with the member whose
-- book a row counts (the customer's assigned_to) as one more key, written by the same triggers with
-- the same statements (the groups functions take the extra key) and moved from one member to the
-- other when a customer is reassigned. The own_book views read the caller's rows of them.

CREATE TABLE member_book_totals (LIKE policy_book_totals INCLUDING DEFAULTS, member_id uuid NOT NULL);
--> statement-breakpoint
ALTER TABLE member_book_totals ADD CONSTRAINT member_book_totals_pkey
  PRIMARY KEY (tenant_id, member_id, company_id, start_date, end_date, standing);
--> statement-breakpoint
CREATE TABLE member_type_totals (LIKE policy_type_totals INCLUDING DEFAULTS, member_id uuid NOT NULL);
--> statement-breakpoint
ALTER TABLE member_type_totals ADD CONSTRAINT member_type_totals_pkey
  PRIMARY KEY (tenant_id, member_id, policy_type_id, start_date, end_date, standing);
--> statement-breakpoint
CREATE TABLE member_calendar_day_totals (LIKE calendar_day_totals INCLUDING DEFAULTS, member_id uuid NOT NULL);
--> statement-breakpoint
ALTER TABLE member_calendar_day_totals ADD CONSTRAINT member_calendar_day_totals_pkey
  PRIMARY KEY (tenant_id, member_id, kind, day);
--> statement-breakpoint
-- Tenant-owned (see 0001_tenant-isolation.sql), and a member kept to their own book reads only their
-- own rows (0069_own-book-role.sql). The triggers run as the writer, as for the agency's totals.
DO $$
DECLARE
  kept text;
BEGIN
  FOREACH kept IN ARRAY ARRAY['member_book_totals', 'member_type_totals', 'member_calendar_day_totals'] LOOP
    EXECUTE format('GRANT SELECT, INSERT, UPDATE ON %I TO coverdesk_app', kept);
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', kept);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', kept);
    EXECUTE format($policy$CREATE POLICY tenant_isolation ON %I
      USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)
      WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)$policy$, kept);
    EXECUTE format($policy$CREATE POLICY own_book ON %I AS RESTRICTIVE TO coverdesk_book
      USING (member_id = app_book_member()) WITH CHECK (true)$policy$, kept);
    -- The platform's read across agencies (0047_platform-read.sql), as on every tenant table.
    EXECUTE format($policy$CREATE POLICY platform_read ON %I FOR SELECT TO %I
      USING (current_setting('app.platform_read', true) = 'on')$policy$, kept, current_user);
  END LOOP;
END
$$;
--> statement-breakpoint
-- The rows `changes` selects from policies or instalments (`table_name`), each with the member whose
-- book it is in; rows of a customer assigned to nobody are in no member's book.
CREATE FUNCTION book_member_changes(table_name text, changes text) RETURNS text LANGUAGE sql IMMUTABLE
AS $fn$ SELECT format(CASE table_name
    WHEN 'policies' THEN $changes$
      SELECT change.*, customers.assigned_to AS member_id FROM (%s) change
      JOIN customers ON customers.tenant_id = change.tenant_id AND customers.id = change.customer_id
      WHERE customers.assigned_to IS NOT NULL $changes$
    ELSE $changes$
      SELECT change.*, customers.assigned_to AS member_id FROM (%s) change
      JOIN policies ON policies.tenant_id = change.tenant_id AND policies.id = change.policy_id
      JOIN customers ON customers.tenant_id = policies.tenant_id AND customers.id = policies.customer_id
      WHERE customers.assigned_to IS NOT NULL $changes$
  END, changes) $fn$;
--> statement-breakpoint
-- The groups functions of 0064_own-book-totals.sql with `keys` (', member_id' or nothing) grouped by
-- after the agency's own: the member's totals are summed by the very statement that sums the agency's.
DROP FUNCTION policy_book_groups(text);
--> statement-breakpoint
CREATE FUNCTION policy_book_groups(changes text, keys text) RETURNS text LANGUAGE sql STABLE
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
        sum(sign * amount_paid) AS amount_paid%2$s
      FROM (
        SELECT change.*,
          policy_standing(cancelled_at, renewed_to_id) AS standing,
          policy_earned_commission(net_premium, commission_percentage, total_premium, earned) AS expected
        FROM (
          SELECT changed.*,
            policy_earned_premium(total_premium, start_date, end_date, cancelled_at, cancellation_refund)
              AS earned
          FROM (%1$s) changed
        ) change
      ) changed
      GROUP BY tenant_id, company_id, start_date, end_date, standing%2$s
  $groups$, changes, keys) $fn$;
--> statement-breakpoint
DROP FUNCTION policy_type_totals_groups(text);
--> statement-breakpoint
CREATE FUNCTION policy_type_totals_groups(changes text, keys text) RETURNS text LANGUAGE sql STABLE
AS $fn$ SELECT format($groups$
      SELECT tenant_id, policy_type_id, start_date, end_date,
        policy_standing(cancelled_at, renewed_to_id) AS standing,
        sum(sign)::integer AS policies,
        sum(sign * total_premium) AS total_premium%2$s
      FROM (%1$s) change
      GROUP BY tenant_id, policy_type_id, start_date, end_date, policy_standing(cancelled_at, renewed_to_id)%2$s
  $groups$, changes, keys) $fn$;
--> statement-breakpoint
DROP FUNCTION calendar_day_totals_groups(text, text);
--> statement-breakpoint
CREATE FUNCTION calendar_day_totals_groups(table_name text, changes text, keys text) RETURNS text
LANGUAGE sql STABLE
AS $fn$ SELECT format($groups$
      SELECT tenant_id, kind, day, sum(sign)::integer AS records, sum(sign * amount)::numeric AS amount%2$s
      FROM (%1$s) counted
      GROUP BY tenant_id, kind, day%2$s
  $groups$, format(CASE table_name
    WHEN 'policies' THEN $counted$
      SELECT tenant_id, 'renewal'::text AS kind, end_date AS day, sign, 0 AS amount%2$s FROM (%1$s) change
      WHERE cancelled_at IS NULL AND renewed_to_id IS NULL $counted$
    ELSE $counted$
      SELECT tenant_id, 'installment'::text AS kind, due_date AS day, sign, amount_due - amount_paid AS amount%2$s
      FROM (%1$s) change WHERE status IN ('pending', 'partially_paid') $counted$
  END, changes, keys), keys) $fn$;
--> statement-breakpoint
-- The upserts of 0064_own-book-totals.sql, into the agency's table or, `by_member`, into the members'
-- (whose `changes` carry member_id).
DROP FUNCTION policy_book_upsert(text);
--> statement-breakpoint
CREATE FUNCTION policy_book_upsert(changes text, by_member boolean) RETURNS text LANGUAGE sql STABLE
AS $fn$ SELECT format($upsert$
    INSERT INTO %1$I AS book
    SELECT * FROM (%2$s) moved
    WHERE (policies, total_premium, expected_commission, received_full_policy, received_pro_rata,
        net_premium, amount_paid)
      IS DISTINCT FROM (0, 0, 0, 0, 0, 0, 0)
    -- Groups locked in one order, so two statements that move several groups cannot deadlock.
    ORDER BY tenant_id, company_id, start_date, end_date, standing%3$s
    ON CONFLICT ON CONSTRAINT %4$I DO UPDATE SET
      policies = book.policies + excluded.policies,
      total_premium = book.total_premium + excluded.total_premium,
      expected_commission = book.expected_commission + excluded.expected_commission,
      received_full_policy = book.received_full_policy + excluded.received_full_policy,
      received_pro_rata = book.received_pro_rata + excluded.received_pro_rata,
      net_premium = book.net_premium + excluded.net_premium,
      amount_paid = book.amount_paid + excluded.amount_paid
  $upsert$,
  CASE WHEN by_member THEN 'member_book_totals' ELSE 'policy_book_totals' END,
  policy_book_groups(changes, CASE WHEN by_member THEN ', member_id' ELSE '' END),
  CASE WHEN by_member THEN ', member_id' ELSE '' END,
  CASE WHEN by_member THEN 'member_book_totals_pkey' ELSE 'policy_book_totals_pkey' END) $fn$;
--> statement-breakpoint
DROP FUNCTION policy_type_totals_upsert(text);
--> statement-breakpoint
CREATE FUNCTION policy_type_totals_upsert(changes text, by_member boolean) RETURNS text LANGUAGE sql STABLE
AS $fn$ SELECT format($upsert$
    INSERT INTO %1$I AS kept
    SELECT * FROM (%2$s) moved
    WHERE (policies, total_premium) IS DISTINCT FROM (0, 0)
    -- Groups locked in one order, so two statements that move several groups cannot deadlock.
    ORDER BY tenant_id, policy_type_id, start_date, end_date, standing%3$s
    ON CONFLICT ON CONSTRAINT %4$I DO UPDATE SET
      policies = kept.policies + excluded.policies,
      total_premium = kept.total_premium + excluded.total_premium
  $upsert$,
  CASE WHEN by_member THEN 'member_type_totals' ELSE 'policy_type_totals' END,
  policy_type_totals_groups(changes, CASE WHEN by_member THEN ', member_id' ELSE '' END),
  CASE WHEN by_member THEN ', member_id' ELSE '' END,
  CASE WHEN by_member THEN 'member_type_totals_pkey' ELSE 'policy_type_totals_pkey' END) $fn$;
--> statement-breakpoint
DROP FUNCTION calendar_day_totals_upsert(text, text);
--> statement-breakpoint
CREATE FUNCTION calendar_day_totals_upsert(table_name text, changes text, by_member boolean) RETURNS text
LANGUAGE sql STABLE
AS $fn$ SELECT format($upsert$
    INSERT INTO %1$I AS kept
    SELECT * FROM (%2$s) moved
    WHERE (records, amount) IS DISTINCT FROM (0, 0)
    -- Days locked in one order, so two statements that move several days cannot deadlock.
    ORDER BY tenant_id, kind, day%3$s
    ON CONFLICT ON CONSTRAINT %4$I DO UPDATE SET
      records = kept.records + excluded.records,
      amount = kept.amount + excluded.amount
  $upsert$,
  CASE WHEN by_member THEN 'member_calendar_day_totals' ELSE 'calendar_day_totals' END,
  calendar_day_totals_groups(table_name, changes, CASE WHEN by_member THEN ', member_id' ELSE '' END),
  CASE WHEN by_member THEN ', member_id' ELSE '' END,
  CASE WHEN by_member THEN 'member_calendar_day_totals_pkey' ELSE 'calendar_day_totals_pkey' END) $fn$;
--> statement-breakpoint
-- The triggers of 0044_kept-totals-catch-up.sql, now keeping the member's totals beside the agency's.
CREATE OR REPLACE FUNCTION policy_book_follow() RETURNS trigger LANGUAGE plpgsql SET search_path = public AS $$
BEGIN
  IF kept_totals_deferred() THEN
    RETURN NULL;
  END IF;
  EXECUTE policy_book_upsert(signed_changes(TG_OP), false);
  EXECUTE policy_book_upsert(book_member_changes('policies', signed_changes(TG_OP)), true);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION policy_type_totals_follow() RETURNS trigger LANGUAGE plpgsql SET search_path = public
AS $$
BEGIN
  IF kept_totals_deferred() THEN
    RETURN NULL;
  END IF;
  EXECUTE policy_type_totals_upsert(signed_changes(TG_OP), false);
  EXECUTE policy_type_totals_upsert(book_member_changes('policies', signed_changes(TG_OP)), true);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION calendar_day_totals_follow() RETURNS trigger LANGUAGE plpgsql SET search_path = public
AS $$
BEGIN
  IF kept_totals_deferred() THEN
    RETURN NULL;
  END IF;
  EXECUTE calendar_day_totals_upsert(TG_TABLE_NAME, signed_changes(TG_OP), false);
  EXECUTE calendar_day_totals_upsert(TG_TABLE_NAME, book_member_changes(TG_TABLE_NAME, signed_changes(TG_OP)), true);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A policy's instalments went through the foreign key's cascade after the policy, when nothing named
-- its customer any more, nor so the member whose totals they counted for: they go first, while the
-- policy still does.
CREATE FUNCTION policy_instalments_go_first() RETURNS trigger LANGUAGE plpgsql SET search_path = public AS $$
BEGIN
  DELETE FROM installments WHERE tenant_id = OLD.tenant_id AND policy_id = OLD.id;
  RETURN OLD;
END
$$;
--> statement-breakpoint
CREATE TRIGGER policy_instalments_before_delete BEFORE DELETE ON policies
  FOR EACH ROW EXECUTE FUNCTION policy_instalments_go_first();
--> statement-breakpoint
-- A customer given to another member (or to nobody) takes their policies' and instalments' figures
-- from the member who had them to the one who has them now.
CREATE FUNCTION member_totals_follow_customers() RETURNS trigger LANGUAGE plpgsql SET search_path = public AS $$
DECLARE
  moved_policies text := $moved$
    SELECT policies.*, -1 AS sign, removed.assigned_to AS member_id
    FROM removed JOIN added ON added.id = removed.id
    JOIN policies ON policies.tenant_id = removed.tenant_id AND policies.customer_id = removed.id
    WHERE removed.assigned_to IS DISTINCT FROM added.assigned_to AND removed.assigned_to IS NOT NULL
    UNION ALL
    SELECT policies.*, 1, added.assigned_to
    FROM removed JOIN added ON added.id = removed.id
    JOIN policies ON policies.tenant_id = added.tenant_id AND policies.customer_id = added.id
    WHERE removed.assigned_to IS DISTINCT FROM added.assigned_to AND added.assigned_to IS NOT NULL $moved$;
  moved_instalments text := $moved$
    SELECT installments.*, -1 AS sign, removed.assigned_to AS member_id
    FROM removed JOIN added ON added.id = removed.id
    JOIN policies ON policies.tenant_id = removed.tenant_id AND policies.customer_id = removed.id
    JOIN installments ON installments.tenant_id = policies.tenant_id AND installments.policy_id = policies.id
    WHERE removed.assigned_to IS DISTINCT FROM added.assigned_to AND removed.assigned_to IS NOT NULL
    UNION ALL
    SELECT installments.*, 1, added.assigned_to
    FROM removed JOIN added ON added.id = removed.id
    JOIN policies ON policies.tenant_id = added.tenant_id AND policies.customer_id = added.id
    JOIN installments ON installments.tenant_id = policies.tenant_id AND installments.policy_id = policies.id
    WHERE removed.assigned_to IS DISTINCT FROM added.assigned_to AND added.assigned_to IS NOT NULL $moved$;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM removed JOIN added ON added.id = removed.id
      WHERE removed.assigned_to IS DISTINCT FROM added.assigned_to) THEN
    RETURN NULL;
  END IF;
  EXECUTE policy_book_upsert(moved_policies, true);
  EXECUTE policy_type_totals_upsert(moved_policies, true);
  EXECUTE calendar_day_totals_upsert('policies', moved_policies, true);
  EXECUTE calendar_day_totals_upsert('installments', moved_instalments, true);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER member_totals_after_update AFTER UPDATE ON customers
  REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION member_totals_follow_customers();
--> statement-breakpoint
-- 0044_kept-totals-catch-up.sql's catch-up, keeping the members' totals too.
CREATE OR REPLACE FUNCTION kept_totals_catch_up(policy_ids uuid[]) RETURNS void LANGUAGE plpgsql
SET search_path = public AS $$
DECLARE
  inserted text := 'SELECT policies.*, 1 AS sign FROM policies WHERE id = ANY ($1)';
  instalments text := 'SELECT installments.*, 1 AS sign FROM installments WHERE policy_id = ANY ($1)';
  affected uuid[];
  tenant_ids uuid[];
  customer_ids uuid[];
BEGIN
  IF kept_totals_deferred() THEN
    RAISE EXCEPTION 'kept totals are still deferred';
  END IF;
  EXECUTE policy_book_upsert(inserted, false) USING policy_ids;
  EXECUTE policy_book_upsert(book_member_changes('policies', inserted), true) USING policy_ids;
  EXECUTE policy_type_totals_upsert(inserted, false) USING policy_ids;
  EXECUTE policy_type_totals_upsert(book_member_changes('policies', inserted), true) USING policy_ids;
  EXECUTE calendar_day_totals_upsert('policies', inserted, false) USING policy_ids;
  EXECUTE calendar_day_totals_upsert('policies', book_member_changes('policies', inserted), true)
    USING policy_ids;
  EXECUTE calendar_day_totals_upsert('installments', instalments, false) USING policy_ids;
  EXECUTE calendar_day_totals_upsert('installments', book_member_changes('installments', instalments), true)
    USING policy_ids;
  EXECUTE policy_months_affected('SELECT id, renewed_to_id, NULL::uuid FROM policies WHERE id = ANY ($1)')
    INTO affected USING policy_ids;
  IF cardinality(affected) > 0 THEN
    PERFORM policy_months_refresh(affected);
  END IF;
  EXECUTE customer_totals_touched('SELECT tenant_id, customer_id FROM policies WHERE id = ANY ($1)')
    INTO tenant_ids, customer_ids USING policy_ids;
  IF customer_ids IS NOT NULL THEN
    PERFORM customer_totals_refresh(tenant_ids, customer_ids);
  END IF;
END
$$;
--> statement-breakpoint
-- The members' totals of the books already written.
DO $$
DECLARE
  every_policy text := 'SELECT policies.*, 1 AS sign FROM policies';
  every_instalment text := 'SELECT installments.*, 1 AS sign FROM installments';
BEGIN
  EXECUTE policy_book_upsert(book_member_changes('policies', every_policy), true);
  EXECUTE policy_type_totals_upsert(book_member_changes('policies', every_policy), true);
  EXECUTE calendar_day_totals_upsert('policies', book_member_changes('policies', every_policy), true);
  EXECUTE calendar_day_totals_upsert('installments', book_member_changes('installments', every_instalment), true);
END
$$;
--> statement-breakpoint
-- The own-book views now read the caller's kept rows; member_id names the index's leading keys after
-- the tenant, which the own_book policy would only filter on.
DROP VIEW own_book.policy_book_totals;
--> statement-breakpoint
DROP FUNCTION own_book.policy_book_rows();
--> statement-breakpoint
CREATE VIEW own_book.policy_book_totals WITH (security_invoker = true) AS
  SELECT tenant_id, company_id, start_date, end_date, standing, policies, total_premium, expected_commission,
    received_full_policy, received_pro_rata, net_premium, amount_paid
  FROM public.member_book_totals WHERE member_id = app_book_member();
--> statement-breakpoint
DROP VIEW own_book.policy_type_totals;
--> statement-breakpoint
DROP FUNCTION own_book.policy_type_rows();
--> statement-breakpoint
CREATE VIEW own_book.policy_type_totals WITH (security_invoker = true) AS
  SELECT tenant_id, policy_type_id, start_date, end_date, standing, policies, total_premium
  FROM public.member_type_totals WHERE member_id = app_book_member();
--> statement-breakpoint
DROP VIEW own_book.calendar_day_totals;
--> statement-breakpoint
DROP FUNCTION own_book.calendar_day_rows();
--> statement-breakpoint
CREATE VIEW own_book.calendar_day_totals WITH (security_invoker = true) AS
  SELECT tenant_id, kind, day, records, amount
  FROM public.member_calendar_day_totals WHERE member_id = app_book_member();
--> statement-breakpoint
GRANT SELECT ON ALL TABLES IN SCHEMA own_book TO coverdesk_app;

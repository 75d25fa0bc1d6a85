-- An import inserts tens of thousands of policies and instalments in one transaction. Rather than have
-- the kept totals worked out after each of its statements (a customer on three policies had their
-- totals recomputed once per batch naming them), the import sets app.kept_totals_deferred for its
-- inserts, the triggers leave the totals alone meanwhile, and kept_totals_catch_up then runs, once,
-- the very statements the insert triggers would have run over all the rows inserted. Each rule stays
-- in one place: the triggers and the catch-up both build their statement with the functions below.

-- True while the transaction defers the kept totals to its catch-up.
CREATE FUNCTION kept_totals_deferred() RETURNS boolean LANGUAGE sql STABLE
AS $$ SELECT coalesce(current_setting('app.kept_totals_deferred', true), '') = 'on' $$;
--> statement-breakpoint
-- A statement's rows as the summing triggers read them from its transition tables: those it added
-- counted once, those it removed once negatively.
CREATE FUNCTION signed_changes(operation text) RETURNS text LANGUAGE sql IMMUTABLE
AS $$ SELECT CASE operation
    WHEN 'INSERT' THEN 'SELECT added.*, 1 AS sign FROM added'
    WHEN 'DELETE' THEN 'SELECT removed.*, -1 AS sign FROM removed'
    ELSE 'SELECT added.*, 1 AS sign FROM added UNION ALL SELECT removed.*, -1 FROM removed'
  END $$;
--> statement-breakpoint
-- The book totals upsert of 0014_book-totals-paid.sql, over the rows `changes` selects (with a sign).
CREATE FUNCTION policy_book_upsert(changes text) RETURNS text LANGUAGE sql STABLE
AS $fn$ SELECT format($upsert$
    INSERT INTO policy_book_totals AS book
    SELECT * FROM (
      SELECT tenant_id, company_id, start_date, end_date, standing,
        sum(sign)::integer AS policies,
        sum(sign * total_premium) AS total_premium,
        sum(sign * expected) AS expected_commission,
        sum(sign * policy_received_commission('full_policy', expected, amount_paid, total_premium))
          AS received_full_policy,
        sum(sign * policy_received_commission('pro_rata', expected, amount_paid, total_premium))
          AS received_pro_rata,
        sum(sign * net_premium) AS net_premium,
        sum(sign * amount_paid) AS amount_paid
      FROM (
        SELECT change.*,
          policy_standing(cancelled_at, renewed_to_id) AS standing,
          policy_expected_commission(net_premium, commission_percentage) AS expected
        FROM (%s) change
      ) changed
      GROUP BY tenant_id, company_id, start_date, end_date, standing
    ) moved
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
  $upsert$, changes) $fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION policy_book_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF kept_totals_deferred() THEN
    RETURN NULL;
  END IF;
  EXECUTE policy_book_upsert(signed_changes(TG_OP));
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The type totals upsert of 0025_policy-type-totals-follow.sql, over the rows `changes` selects.
CREATE FUNCTION policy_type_totals_upsert(changes text) RETURNS text LANGUAGE sql STABLE
AS $fn$ SELECT format($upsert$
    INSERT INTO policy_type_totals AS kept
    SELECT * FROM (
      SELECT tenant_id, policy_type_id, start_date, end_date,
        policy_standing(cancelled_at, renewed_to_id) AS standing,
        sum(sign)::integer AS policies,
        sum(sign * total_premium) AS total_premium
      FROM (%s) change
      GROUP BY tenant_id, policy_type_id, start_date, end_date, policy_standing(cancelled_at, renewed_to_id)
    ) moved
    WHERE (policies, total_premium) IS DISTINCT FROM (0, 0)
    -- Groups locked in one order, so two statements that move several groups cannot deadlock.
    ORDER BY tenant_id, policy_type_id, start_date, end_date, standing
    ON CONFLICT ON CONSTRAINT policy_type_totals_pkey DO UPDATE SET
      policies = kept.policies + excluded.policies,
      total_premium = kept.total_premium + excluded.total_premium
  $upsert$, changes) $fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION policy_type_totals_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF kept_totals_deferred() THEN
    RETURN NULL;
  END IF;
  EXECUTE policy_type_totals_upsert(signed_changes(TG_OP));
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The calendar's day upsert of 0030_calendar-day-totals-follow.sql, over the policies or instalments
-- (`table_name`) that `changes` selects.
CREATE FUNCTION calendar_day_totals_upsert(table_name text, changes text) RETURNS text LANGUAGE sql STABLE
AS $fn$ SELECT format($upsert$
    INSERT INTO calendar_day_totals AS kept
    SELECT * FROM (
      SELECT tenant_id, kind, day, sum(sign)::integer AS records, sum(sign * amount) AS amount
      FROM (%s) counted
      GROUP BY tenant_id, kind, day
    ) moved
    WHERE (records, amount) IS DISTINCT FROM (0, 0)
    -- Days locked in one order, so two statements that move several days cannot deadlock.
    ORDER BY tenant_id, kind, day
    ON CONFLICT ON CONSTRAINT calendar_day_totals_pkey DO UPDATE SET
      records = kept.records + excluded.records,
      amount = kept.amount + excluded.amount
  $upsert$, format(CASE table_name
    WHEN 'policies' THEN $counted$
      SELECT tenant_id, 'renewal' AS kind, end_date AS day, sign, 0 AS amount FROM (%s) change
      WHERE cancelled_at IS NULL AND renewed_to_id IS NULL $counted$
    ELSE $counted$
      SELECT tenant_id, 'installment' AS kind, due_date AS day, sign, amount_due - amount_paid AS amount
      FROM (%s) change WHERE status <> 'paid' $counted$
  END, changes)) $fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION calendar_day_totals_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF kept_totals_deferred() THEN
    RETURN NULL;
  END IF;
  EXECUTE calendar_day_totals_upsert(TG_TABLE_NAME, signed_changes(TG_OP));
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The policies whose history months a change to the policies `changed` selects (id, renewed_to_id,
-- was_renewed_to_id) moves, as an array (0016_history-months-follow.sql): those policies, the terms
-- they renew or renewed, and the terms that renew them.
CREATE FUNCTION policy_months_affected(changed text) RETURNS text LANGUAGE sql STABLE
AS $fn$ SELECT format($affected$
    WITH changed(id, renewed_to_id, was_renewed_to_id) AS (%s)
    SELECT coalesce(array_agg(DISTINCT id), '{}') FROM (
      SELECT id FROM changed
      UNION ALL SELECT renewed_to_id FROM changed
      UNION ALL SELECT was_renewed_to_id FROM changed
      UNION ALL SELECT earlier.id FROM policies earlier JOIN changed ON earlier.renewed_to_id = changed.id
    ) ids WHERE id IS NOT NULL
  $affected$, changed) $fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION policy_months_follow_policies() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  affected uuid[];
BEGIN
  IF kept_totals_deferred() THEN
    RETURN NULL;
  END IF;
  EXECUTE policy_months_affected(CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT id, renewed_to_id, NULL::uuid AS was_renewed_to_id FROM added'
    WHEN 'DELETE' THEN 'SELECT id, NULL::uuid, renewed_to_id FROM removed'
    ELSE 'SELECT added.id, added.renewed_to_id, removed.renewed_to_id FROM added JOIN removed USING (id)
      WHERE (added.company_id, added.start_date, added.end_date, added.cancelled_at, added.renewed_to_id,
          added.total_premium, added.net_premium, added.commission_percentage)
        IS DISTINCT FROM (removed.company_id, removed.start_date, removed.end_date, removed.cancelled_at,
          removed.renewed_to_id, removed.total_premium, removed.net_premium, removed.commission_percentage)'
  END) INTO affected;
  IF cardinality(affected) > 0 THEN
    PERFORM policy_months_refresh(affected);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- As in 0035_history-skips-unpaid-instalments.sql. A deferred insert of instalments is covered by the
-- catch-up's refresh of their policies.
CREATE OR REPLACE FUNCTION policy_months_follow_installments() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT policy_id FROM added WHERE amount_paid > 0 AND paid_date IS NOT NULL'
    WHEN 'DELETE' THEN 'SELECT policy_id FROM removed WHERE amount_paid > 0 AND paid_date IS NOT NULL'
    ELSE 'SELECT added.policy_id FROM added JOIN removed USING (id)
        WHERE (added.policy_id, added.amount_paid, added.paid_date)
          IS DISTINCT FROM (removed.policy_id, removed.amount_paid, removed.paid_date)
      UNION ALL SELECT removed.policy_id FROM added JOIN removed USING (id)
        WHERE added.policy_id IS DISTINCT FROM removed.policy_id'
  END;
  affected uuid[];
BEGIN
  IF kept_totals_deferred() THEN
    RETURN NULL;
  END IF;
  EXECUTE format('SELECT coalesce(array_agg(DISTINCT policy_id), ''{}'') FROM (%s) changed', changed)
    INTO affected;
  IF cardinality(affected) > 0 THEN
    PERFORM policy_months_refresh(affected);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The customers whose totals a change to the policies `changed` selects (tenant_id, customer_id)
-- moves, as two arrays for customer_totals_refresh (0018_customer-totals-follow.sql).
CREATE FUNCTION customer_totals_touched(changed text) RETURNS text LANGUAGE sql STABLE
AS $fn$ SELECT format('SELECT array_agg(tenant_id), array_agg(customer_id)
    FROM (SELECT DISTINCT tenant_id, customer_id FROM (%s) changed) touched', changed) $fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION customer_totals_follow() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tenant_ids uuid[];
  customer_ids uuid[];
BEGIN
  IF kept_totals_deferred() THEN
    RETURN NULL;
  END IF;
  EXECUTE customer_totals_touched(CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT tenant_id, customer_id FROM added'
    WHEN 'DELETE' THEN 'SELECT tenant_id, customer_id FROM removed'
    ELSE 'SELECT added.tenant_id, added.customer_id FROM added JOIN removed USING (id)
        WHERE (added.customer_id, added.company_id, added.start_date, added.cancelled_at,
            added.total_premium, added.net_premium, added.commission_percentage, added.amount_paid)
          IS DISTINCT FROM (removed.customer_id, removed.company_id, removed.start_date,
            removed.cancelled_at, removed.total_premium, removed.net_premium,
            removed.commission_percentage, removed.amount_paid)
      UNION ALL SELECT removed.tenant_id, removed.customer_id FROM added JOIN removed USING (id)
        WHERE added.customer_id IS DISTINCT FROM removed.customer_id'
  END) INTO tenant_ids, customer_ids;
  IF customer_ids IS NOT NULL THEN
    PERFORM customer_totals_refresh(tenant_ids, customer_ids);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- What the insert triggers of policies and instalments would have done had `policy_ids` (policies
-- inserted while the totals were deferred) and their instalments been inserted by one statement each.
-- Runs with the totals no longer deferred, so the history months it writes reach book_months.
CREATE FUNCTION kept_totals_catch_up(policy_ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  inserted text := 'SELECT policies.*, 1 AS sign FROM policies WHERE id = ANY ($1)';
  affected uuid[];
  tenant_ids uuid[];
  customer_ids uuid[];
BEGIN
  IF kept_totals_deferred() THEN
    RAISE EXCEPTION 'kept totals are still deferred';
  END IF;
  EXECUTE policy_book_upsert(inserted) USING policy_ids;
  EXECUTE policy_type_totals_upsert(inserted) USING policy_ids;
  EXECUTE calendar_day_totals_upsert('policies', inserted) USING policy_ids;
  EXECUTE calendar_day_totals_upsert('installments',
    'SELECT installments.*, 1 AS sign FROM installments WHERE policy_id = ANY ($1)') USING policy_ids;
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

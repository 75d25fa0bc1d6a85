-- The portfolio history kept as the book changes (tables in 0015_history-months.sql). A policy's
-- figures by month are worked out again from the policy, its renewal link and its instalments
-- whenever one of them changes, with the same rules the history had computed per request: a term
-- covers from its start to its end, or to the day before its cancellation or its renewal's start
-- when earlier; it is new business unless it renews an earlier term; its payments earn, month by
-- month, the received commission on what was paid by the month's end less that on what was paid
-- before the month. book_months sums them per insurer and month.
CREATE FUNCTION policy_months_refresh(policy_ids uuid[]) RETURNS void LANGUAGE sql AS $$
  DELETE FROM policy_months WHERE policy_id = ANY (policy_ids);
  INSERT INTO policy_months
  SELECT tenant_id, policy_id, company_id, date_trunc('month', day)::date AS month,
    sum(in_force)::integer, sum(premium_in_force), sum(new_policies)::integer, sum(expected_commission),
    sum(renewed)::integer, sum(ended_open)::integer, sum(cancelled)::integer,
    sum(received_full_policy), sum(received_pro_rata)
  FROM (
    SELECT term.tenant_id, term.id AS policy_id, term.company_id, event.*
    FROM policies term
    CROSS JOIN LATERAL (
      SELECT policy_standing(term.cancelled_at, term.renewed_to_id) AS standing,
        CASE WHEN term.cancelled_at IS NULL
          THEN policy_expected_commission(term.net_premium, term.commission_percentage) ELSE 0 END
          AS expected,
        least(term.end_date, term.cancelled_at - 1, (
          SELECT renewal.start_date - 1 FROM policies renewal
          WHERE renewal.tenant_id = term.tenant_id AND renewal.id = term.renewed_to_id)) AS stop,
        NOT EXISTS (SELECT FROM policies earlier WHERE earlier.renewed_to_id = term.id) AS first_term
    ) facts
    CROSS JOIN LATERAL (VALUES
      -- Starts: covering (unless it stops before it starts), new business or a renewal.
      (term.start_date, (facts.stop >= term.start_date)::integer,
        CASE WHEN facts.stop >= term.start_date THEN term.total_premium ELSE 0 END,
        facts.first_term::integer, facts.expected, 0, 0, 0, 0::numeric, 0::numeric),
      -- Stops covering the day after its cover ends.
      (facts.stop + 1, -(facts.stop >= term.start_date)::integer,
        CASE WHEN facts.stop >= term.start_date THEN -term.total_premium ELSE 0 END,
        0, 0, 0, 0, 0, 0, 0),
      (term.end_date, 0, 0, 0, 0, (facts.standing = 'renewed')::integer,
        (facts.standing = 'open')::integer, 0, 0, 0),
      (term.cancelled_at, 0, 0, 0, 0, 0, 0, 1, 0, 0)
    ) event(day, in_force, premium_in_force, new_policies, expected_commission, renewed, ended_open,
      cancelled, received_full_policy, received_pro_rata)
    WHERE term.id = ANY (policy_ids) AND event.day IS NOT NULL
    UNION ALL
    SELECT term.tenant_id, term.id, term.company_id, paid.month, 0, 0, 0, 0, 0, 0, 0,
      policy_received_commission('full_policy', facts.expected, paid.by_month_end, term.total_premium)
        - policy_received_commission('full_policy', facts.expected, paid.by_month_end - paid.amount,
          term.total_premium),
      policy_received_commission('pro_rata', facts.expected, paid.by_month_end, term.total_premium)
        - policy_received_commission('pro_rata', facts.expected, paid.by_month_end - paid.amount,
          term.total_premium)
    FROM policies term
    CROSS JOIN LATERAL (
      SELECT policy_expected_commission(term.net_premium, term.commission_percentage) AS expected
    ) facts
    CROSS JOIN LATERAL (
      SELECT month, amount, sum(amount) OVER (ORDER BY month) AS by_month_end
      FROM (
        SELECT date_trunc('month', paid_date)::date AS month, sum(amount_paid) AS amount
        FROM installments
        WHERE tenant_id = term.tenant_id AND policy_id = term.id
          AND amount_paid > 0 AND paid_date IS NOT NULL
        GROUP BY 1
      ) months
    ) paid
    -- A cancelled policy earns nothing, as in the policy stats.
    WHERE term.id = ANY (policy_ids) AND term.cancelled_at IS NULL
  ) events
  GROUP BY tenant_id, policy_id, company_id, date_trunc('month', day)
  HAVING (sum(in_force), sum(premium_in_force), sum(new_policies), sum(expected_commission),
      sum(renewed), sum(ended_open), sum(cancelled), sum(received_full_policy), sum(received_pro_rata))
    IS DISTINCT FROM (0, 0, 0, 0, 0, 0, 0, 0, 0);
$$;
--> statement-breakpoint
-- Policies written by a statement: those whose dates, money, insurer, cancellation or renewal link
-- moved, the terms they renew or renewed (new business or not), and the terms that renew them
-- (whose cover ends the day before the renewal starts).
CREATE FUNCTION policy_months_follow_policies() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT id, renewed_to_id, NULL::uuid AS was_renewed_to_id FROM added'
    WHEN 'DELETE' THEN 'SELECT id, NULL::uuid, renewed_to_id FROM removed'
    ELSE 'SELECT added.id, added.renewed_to_id, removed.renewed_to_id FROM added JOIN removed USING (id)
      WHERE (added.company_id, added.start_date, added.end_date, added.cancelled_at, added.renewed_to_id,
          added.total_premium, added.net_premium, added.commission_percentage)
        IS DISTINCT FROM (removed.company_id, removed.start_date, removed.end_date, removed.cancelled_at,
          removed.renewed_to_id, removed.total_premium, removed.net_premium, removed.commission_percentage)'
  END;
  affected uuid[];
BEGIN
  EXECUTE format($affected$
    WITH changed(id, renewed_to_id, was_renewed_to_id) AS (%s)
    SELECT coalesce(array_agg(DISTINCT id), '{}') FROM (
      SELECT id FROM changed
      UNION ALL SELECT renewed_to_id FROM changed
      UNION ALL SELECT was_renewed_to_id FROM changed
      UNION ALL SELECT earlier.id FROM policies earlier JOIN changed ON earlier.renewed_to_id = changed.id
    ) ids WHERE id IS NOT NULL
  $affected$, changed) INTO affected;
  IF cardinality(affected) > 0 THEN
    PERFORM policy_months_refresh(affected);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Instalments written by a statement: their policies, when what was paid or when moved.
CREATE FUNCTION policy_months_follow_installments() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT policy_id FROM added'
    WHEN 'DELETE' THEN 'SELECT policy_id FROM removed'
    ELSE 'SELECT added.policy_id FROM added JOIN removed USING (id)
        WHERE (added.policy_id, added.amount_paid, added.paid_date)
          IS DISTINCT FROM (removed.policy_id, removed.amount_paid, removed.paid_date)
      UNION ALL SELECT removed.policy_id FROM added JOIN removed USING (id)
        WHERE added.policy_id IS DISTINCT FROM removed.policy_id'
  END;
  affected uuid[];
BEGIN
  EXECUTE format('SELECT coalesce(array_agg(DISTINCT policy_id), ''{}'') FROM (%s) changed', changed)
    INTO affected;
  IF cardinality(affected) > 0 THEN
    PERFORM policy_months_refresh(affected);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Keeps book_months the sum of policy_months, as policy_book_follow keeps the book totals: removed
-- rows negatively, added rows positively, one upsert per statement, groups locked in key order.
CREATE FUNCTION book_months_follow() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changes text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT added.*, 1 AS sign FROM added'
    ELSE 'SELECT removed.*, -1 AS sign FROM removed'
  END;
BEGIN
  EXECUTE format($upsert$
    INSERT INTO book_months AS book
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
        sum(sign * received_pro_rata) AS received_pro_rata
      FROM (%s) change
      GROUP BY tenant_id, month, company_id
    ) moved
    WHERE (in_force, premium_in_force, new_policies, expected_commission, renewed, ended_open, cancelled,
        received_full_policy, received_pro_rata)
      IS DISTINCT FROM (0, 0, 0, 0, 0, 0, 0, 0, 0)
    ORDER BY tenant_id, month, company_id
    ON CONFLICT ON CONSTRAINT book_months_pkey DO UPDATE SET
      in_force = book.in_force + excluded.in_force,
      premium_in_force = book.premium_in_force + excluded.premium_in_force,
      new_policies = book.new_policies + excluded.new_policies,
      expected_commission = book.expected_commission + excluded.expected_commission,
      renewed = book.renewed + excluded.renewed,
      ended_open = book.ended_open + excluded.ended_open,
      cancelled = book.cancelled + excluded.cancelled,
      received_full_policy = book.received_full_policy + excluded.received_full_policy,
      received_pro_rata = book.received_pro_rata + excluded.received_pro_rata
  $upsert$, changes);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER book_months_after_insert AFTER INSERT ON policy_months
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION book_months_follow();
--> statement-breakpoint
CREATE TRIGGER book_months_after_delete AFTER DELETE ON policy_months
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION book_months_follow();
--> statement-breakpoint
CREATE TRIGGER policy_months_after_insert AFTER INSERT ON policies
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION policy_months_follow_policies();
--> statement-breakpoint
CREATE TRIGGER policy_months_after_update AFTER UPDATE ON policies
  REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION policy_months_follow_policies();
--> statement-breakpoint
CREATE TRIGGER policy_months_after_delete AFTER DELETE ON policies
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION policy_months_follow_policies();
--> statement-breakpoint
CREATE TRIGGER policy_months_after_insert AFTER INSERT ON installments
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION policy_months_follow_installments();
--> statement-breakpoint
CREATE TRIGGER policy_months_after_update AFTER UPDATE ON installments
  REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION policy_months_follow_installments();
--> statement-breakpoint
CREATE TRIGGER policy_months_after_delete AFTER DELETE ON installments
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION policy_months_follow_installments();
--> statement-breakpoint
-- Tenant-owned (see 0001_tenant-isolation.sql). The triggers run as the writer of the policies, so
-- inside a tenant transaction they too can only touch that agency's rows.
GRANT SELECT, INSERT, DELETE ON policy_months TO coverdesk_app;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON book_months TO coverdesk_app;
--> statement-breakpoint
ALTER TABLE policy_months ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON policy_months
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE book_months ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON book_months
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);
--> statement-breakpoint
-- The book as it stands. A migration runs in no agency's scope, so row-level security, forced on the
-- tables it reads, is forced on these two only once they are filled.
ALTER TABLE policies NO FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE installments NO FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
SELECT policy_months_refresh(coalesce(array_agg(id), '{}')) FROM policies;
--> statement-breakpoint
ALTER TABLE policies FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE installments FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE policy_months FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE book_months FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
-- Sizes for the planner now rather than at the next autovacuum: a large book read as a handful of
-- rows is joined one row at a time.
ANALYZE policy_months, book_months;

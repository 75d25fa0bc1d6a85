DROP INDEX "installments_tenant_unpaid_idx";--> statement-breakpoint
ALTER TABLE "policies" ADD COLUMN "cancellation_refund" numeric(14, 2);--> statement-breakpoint
CREATE INDEX "installments_tenant_unpaid_idx" ON "installments" USING btree ("tenant_id","due_date","id") WHERE status in ('pending', 'partially_paid');--> statement-breakpoint
-- A cancelled policy earns its premium for the days it covered (from its start to the day before its
-- cancellation, over the term's days), or its premium less the refund the broker entered, and its
-- commission in the same proportion; a policy not cancelled earns its whole premium. Every list, total
-- and report reads what a policy earns through these (policies/commission.ts names them).
CREATE FUNCTION policy_earned_premium(
  total_premium numeric, start_date date, end_date date, cancelled_at date, refund numeric
)
RETURNS numeric LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT CASE
    WHEN cancelled_at IS NULL THEN total_premium
    WHEN refund IS NOT NULL THEN greatest(total_premium - refund, 0)
    ELSE round(total_premium * greatest(least(cancelled_at - start_date, end_date - start_date + 1), 0)
      / (end_date - start_date + 1), 2)
  END
$$;
--> statement-breakpoint
-- The expected commission on what the term earns: the whole of it on the whole premium, else the
-- same share of it, to the cent (half-up).
CREATE FUNCTION policy_earned_commission(
  net_premium numeric, commission_percentage numeric, total_premium numeric, earned_premium numeric
)
RETURNS numeric LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT CASE
    WHEN earned_premium >= total_premium THEN policy_expected_commission(net_premium, commission_percentage)
    ELSE round(policy_expected_commission(net_premium, commission_percentage) * earned_premium / total_premium, 2)
  END
$$;
--> statement-breakpoint
-- As in 0009, read against what the term earns: once that is paid, the whole expected commission under
-- either method (so a term that earned nothing never divides by it).
CREATE OR REPLACE FUNCTION policy_received_commission(
  payment_method text, expected numeric, amount_paid numeric, total_premium numeric
)
RETURNS numeric LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT CASE
    WHEN amount_paid >= total_premium THEN expected
    WHEN payment_method = 'pro_rata' THEN round(expected * amount_paid / total_premium, 2)
    ELSE 0.00
  END
$$;
--> statement-breakpoint
-- The book totals of 0044, with a cancelled term's earned commission instead of none.
CREATE OR REPLACE FUNCTION policy_book_upsert(changes text) RETURNS text LANGUAGE sql STABLE
AS $fn$ SELECT format($upsert$
    INSERT INTO policy_book_totals AS book
    SELECT * FROM (
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
-- The calendar's day upsert of 0044: a cancelled instalment is never due, as a paid one is not.
CREATE OR REPLACE FUNCTION calendar_day_totals_upsert(table_name text, changes text) RETURNS text LANGUAGE sql STABLE
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
      FROM (%s) change WHERE status IN ('pending', 'partially_paid') $counted$
  END, changes)) $fn$;
--> statement-breakpoint
-- The history months of 0016, with a cancelled term's earned commission, expected in its start month
-- and received month by month on what it earns, instead of none.
CREATE OR REPLACE FUNCTION policy_months_refresh(policy_ids uuid[]) RETURNS void LANGUAGE sql AS $$
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
        policy_earned_commission(term.net_premium, term.commission_percentage, term.total_premium,
          policy_earned_premium(term.total_premium, term.start_date, term.end_date, term.cancelled_at,
            term.cancellation_refund)) AS expected,
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
      policy_received_commission('full_policy', facts.expected, paid.by_month_end, facts.earned)
        - policy_received_commission('full_policy', facts.expected, paid.by_month_end - paid.amount,
          facts.earned),
      policy_received_commission('pro_rata', facts.expected, paid.by_month_end, facts.earned)
        - policy_received_commission('pro_rata', facts.expected, paid.by_month_end - paid.amount,
          facts.earned)
    FROM policies term
    CROSS JOIN LATERAL (
      SELECT policy_earned_premium(term.total_premium, term.start_date, term.end_date, term.cancelled_at,
        term.cancellation_refund) AS earned
    ) earning
    CROSS JOIN LATERAL (
      SELECT earning.earned,
        policy_earned_commission(term.net_premium, term.commission_percentage, term.total_premium,
          earning.earned) AS expected
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
    WHERE term.id = ANY (policy_ids)
  ) events
  GROUP BY tenant_id, policy_id, company_id, date_trunc('month', day)
  HAVING (sum(in_force), sum(premium_in_force), sum(new_policies), sum(expected_commission),
      sum(renewed), sum(ended_open), sum(cancelled), sum(received_full_policy), sum(received_pro_rata))
    IS DISTINCT FROM (0, 0, 0, 0, 0, 0, 0, 0, 0);
$$;
--> statement-breakpoint
-- The customer totals of 0018: a cancelled term is still left out of the terms held and their premium,
-- but its earned commission counts, as everywhere else.
CREATE OR REPLACE FUNCTION customer_totals_refresh(tenant_ids uuid[], customer_ids uuid[]) RETURNS void
LANGUAGE sql AS $$
  DELETE FROM customer_totals WHERE customer_id = ANY (customer_ids);
  INSERT INTO customer_totals
  SELECT policy.tenant_id, policy.customer_id, policy.company_id,
    (count(*) FILTER (WHERE policy.cancelled_at IS NULL))::integer,
    coalesce(sum(policy.total_premium) FILTER (WHERE policy.cancelled_at IS NULL), 0),
    coalesce(sum(commission.expected), 0),
    coalesce(sum(policy_received_commission('full_policy', commission.expected, policy.amount_paid,
      commission.earned)), 0),
    coalesce(sum(policy_received_commission('pro_rata', commission.expected, policy.amount_paid,
      commission.earned)), 0),
    min(policy.start_date)
  FROM unnest(tenant_ids, customer_ids) AS touched(tenant_id, customer_id)
  JOIN policies policy
    ON policy.tenant_id = touched.tenant_id AND policy.customer_id = touched.customer_id
  CROSS JOIN LATERAL (
    SELECT policy_earned_premium(policy.total_premium, policy.start_date, policy.end_date,
      policy.cancelled_at, policy.cancellation_refund) AS earned
  ) earning
  CROSS JOIN LATERAL (
    SELECT earning.earned, policy_earned_commission(policy.net_premium, policy.commission_percentage,
      policy.total_premium, earning.earned) AS expected
  ) commission
  GROUP BY policy.tenant_id, policy.customer_id, policy.company_id;
$$;
--> statement-breakpoint
-- data: instalments due after their policy's cancellation are cancelled (the calendar's day totals
-- follow by their trigger), and the kept totals of the policies already cancelled are worked out again
-- with the commission they earned.
UPDATE installments SET status = 'cancelled', updated_at = now()
FROM policies
WHERE policies.tenant_id = installments.tenant_id AND policies.id = installments.policy_id
  AND policies.cancelled_at IS NOT NULL AND installments.due_date > policies.cancelled_at
  AND installments.status IN ('pending', 'partially_paid');
--> statement-breakpoint
DELETE FROM policy_book_totals WHERE standing = 'cancelled';
--> statement-breakpoint
DO $$ BEGIN
  EXECUTE policy_book_upsert('SELECT policies.*, 1 AS sign FROM policies WHERE cancelled_at IS NOT NULL');
  PERFORM policy_months_refresh(array_agg(id)) FROM policies WHERE cancelled_at IS NOT NULL;
  PERFORM customer_totals_refresh(array_agg(tenant_id), array_agg(customer_id))
  FROM (SELECT DISTINCT tenant_id, customer_id FROM policies WHERE cancelled_at IS NOT NULL) touched;
END $$;

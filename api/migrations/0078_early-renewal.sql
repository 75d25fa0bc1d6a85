-- A renewal that starts before its term's end ends that term the day before, as insurers treat a
-- rewrite (issue 49): the term is ended on the renewal's start by the cancellation's mechanism
-- (cancelled_at, no reason, no refund), so it earns its premium and commission for its days of cover
-- (policy_earned_premium) in every kept total, and no day of cover earns commission twice. It still
-- reads as renewed: a renewal link now wins over a cancellation date in a term's standing. A term can
-- no longer be cancelled once renewed; the few renewed and later cancelled move from 'cancelled' to
-- 'renewed' in the book and type totals, taken out under the old standing and put back under the new.
DO $$ BEGIN
  EXECUTE policy_book_upsert(
    'SELECT policies.*, -1 AS sign FROM policies WHERE cancelled_at IS NOT NULL AND renewed_to_id IS NOT NULL');
  EXECUTE policy_type_totals_upsert(
    'SELECT policies.*, -1 AS sign FROM policies WHERE cancelled_at IS NOT NULL AND renewed_to_id IS NOT NULL');
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION policy_standing(cancelled_at date, renewed_to_id uuid)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT CASE
    WHEN renewed_to_id IS NOT NULL THEN 'renewed'
    WHEN cancelled_at IS NOT NULL THEN 'cancelled'
    ELSE 'open'
  END
$$;
--> statement-breakpoint
DO $$ BEGIN
  EXECUTE policy_book_upsert(
    'SELECT policies.*, 1 AS sign FROM policies WHERE cancelled_at IS NOT NULL AND renewed_to_id IS NOT NULL');
  EXECUTE policy_type_totals_upsert(
    'SELECT policies.*, 1 AS sign FROM policies WHERE cancelled_at IS NOT NULL AND renewed_to_id IS NOT NULL');
END $$;
--> statement-breakpoint
-- The history months of 0056: a term ended early by its renewal counts as renewed in the month its
-- cover stopped, and only a term that is cancelled (not renewed) counts as a cancellation.
CREATE OR REPLACE FUNCTION policy_months_refresh(policy_ids uuid[]) RETURNS void LANGUAGE sql
SET search_path = public AS $$
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
      -- Ends: on its last day, or the last day of cover when its renewal ended it early.
      (CASE WHEN facts.standing = 'renewed' THEN greatest(least(term.end_date, facts.stop), term.start_date)
        ELSE term.end_date END,
        0, 0, 0, 0, (facts.standing = 'renewed')::integer, (facts.standing = 'open')::integer, 0, 0, 0),
      (CASE WHEN facts.standing = 'cancelled' THEN term.cancelled_at END, 0, 0, 0, 0, 0, 0, 1, 0, 0)
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
-- data: every term whose renewal starts before its end is ended the day before the renewal's start
-- (never before its own start), as the renewal would end it today; the triggers move its book, type,
-- history and customer totals with it. Its instalments due after that day are cancelled as a
-- cancellation's are (the calendar follows by its trigger); paid ones stay paid.
UPDATE policies term SET cancelled_at = greatest(renewal.start_date, term.start_date), updated_at = now()
FROM policies renewal
WHERE renewal.tenant_id = term.tenant_id AND renewal.id = term.renewed_to_id
  AND renewal.start_date <= term.end_date AND term.cancelled_at IS NULL;
--> statement-breakpoint
UPDATE installments SET status = 'cancelled', updated_at = now()
FROM policies
WHERE policies.tenant_id = installments.tenant_id AND policies.id = installments.policy_id
  AND policies.cancelled_at IS NOT NULL AND policies.renewed_to_id IS NOT NULL
  AND installments.due_date > policies.cancelled_at
  AND installments.status IN ('pending', 'partially_paid');
--> statement-breakpoint
-- The history months of every renewed term, and of every term cancelled then renewed, worked out again
-- under the new rule.
DO $$ BEGIN
  PERFORM policy_months_refresh(array_agg(id)) FROM policies WHERE renewed_to_id IS NOT NULL;
END $$;

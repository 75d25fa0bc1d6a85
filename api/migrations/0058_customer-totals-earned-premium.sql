-- The customer totals of 0056 counted a cancelled term's earned commission but left the term and its
-- premium out. A cancelled term now counts as every other figure counts it: one of the terms held,
-- with the premium it earned (policy_earned_premium) and the commission that carries.
CREATE OR REPLACE FUNCTION customer_totals_refresh(tenant_ids uuid[], customer_ids uuid[]) RETURNS void
LANGUAGE sql AS $$
  DELETE FROM customer_totals WHERE customer_id = ANY (customer_ids);
  INSERT INTO customer_totals
  SELECT policy.tenant_id, policy.customer_id, policy.company_id,
    count(*)::integer,
    coalesce(sum(commission.earned), 0),
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
-- data: the totals of every customer who holds a cancelled term are worked out again.
DO $$ BEGIN
  PERFORM customer_totals_refresh(array_agg(tenant_id), array_agg(customer_id))
  FROM (SELECT DISTINCT tenant_id, customer_id FROM policies WHERE cancelled_at IS NOT NULL) touched;
END $$;

-- Customers' lifetime figures kept as their policies change (table in 0017_customer-totals.sql): the
-- customers a statement touched have their rows worked out again from their policies, with the
-- commission functions every policy page uses.
CREATE FUNCTION customer_totals_refresh(tenant_ids uuid[], customer_ids uuid[]) RETURNS void
LANGUAGE sql AS $$
  DELETE FROM customer_totals WHERE customer_id = ANY (customer_ids);
  INSERT INTO customer_totals
  SELECT policy.tenant_id, policy.customer_id, policy.company_id,
    (count(*) FILTER (WHERE policy.cancelled_at IS NULL))::integer,
    coalesce(sum(policy.total_premium) FILTER (WHERE policy.cancelled_at IS NULL), 0),
    coalesce(sum(commission.expected) FILTER (WHERE policy.cancelled_at IS NULL), 0),
    coalesce(sum(policy_received_commission('full_policy', commission.expected, policy.amount_paid,
      policy.total_premium)) FILTER (WHERE policy.cancelled_at IS NULL), 0),
    coalesce(sum(policy_received_commission('pro_rata', commission.expected, policy.amount_paid,
      policy.total_premium)) FILTER (WHERE policy.cancelled_at IS NULL), 0),
    min(policy.start_date)
  FROM unnest(tenant_ids, customer_ids) AS touched(tenant_id, customer_id)
  JOIN policies policy
    ON policy.tenant_id = touched.tenant_id AND policy.customer_id = touched.customer_id
  CROSS JOIN LATERAL (
    SELECT policy_expected_commission(policy.net_premium, policy.commission_percentage) AS expected
  ) commission
  GROUP BY policy.tenant_id, policy.customer_id, policy.company_id;
$$;
--> statement-breakpoint
-- The customers of the policies a statement wrote, when anything their figures read moved.
CREATE FUNCTION customer_totals_follow() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed text := CASE TG_OP
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
  END;
  tenant_ids uuid[];
  customer_ids uuid[];
BEGIN
  EXECUTE format('SELECT array_agg(tenant_id), array_agg(customer_id)
    FROM (SELECT DISTINCT tenant_id, customer_id FROM (%s) changed) touched', changed)
    INTO tenant_ids, customer_ids;
  IF customer_ids IS NOT NULL THEN
    PERFORM customer_totals_refresh(tenant_ids, customer_ids);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER customer_totals_after_insert AFTER INSERT ON policies
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION customer_totals_follow();
--> statement-breakpoint
CREATE TRIGGER customer_totals_after_update AFTER UPDATE ON policies
  REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION customer_totals_follow();
--> statement-breakpoint
CREATE TRIGGER customer_totals_after_delete AFTER DELETE ON policies
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION customer_totals_follow();
--> statement-breakpoint
-- Tenant-owned (see 0001_tenant-isolation.sql); the trigger runs as the writer of the policies.
GRANT SELECT, INSERT, DELETE ON customer_totals TO coverdesk_app;
--> statement-breakpoint
ALTER TABLE customer_totals ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON customer_totals
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);
--> statement-breakpoint
-- The customers as they stand, read with row-level security lifted for this migration alone (it
-- runs in no agency's scope).
ALTER TABLE policies NO FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
SELECT customer_totals_refresh(coalesce(array_agg(tenant_id), '{}'), coalesce(array_agg(customer_id), '{}'))
FROM (SELECT DISTINCT tenant_id, customer_id FROM policies) touched;
--> statement-breakpoint
ALTER TABLE policies FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE customer_totals FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
-- Sizes for the planner now rather than at the next autovacuum (see 0016_history-months-follow.sql).
ANALYZE customer_totals;

-- An import inserts tens of thousands of policies, batch by batch, in one transaction. The customer
-- totals trigger works a customer's totals out again from all of their policies whenever a statement
-- writes one of them, so a customer whose three policies fall in three batches was worked out three
-- times. While the transaction sets app.customer_totals_deferred the trigger leaves the customers
-- alone, and customer_totals_catch_up then works out, once, the customers of all the policies
-- inserted meanwhile. Which customers a change touches is defined once, for both, by
-- customer_totals_touched. (The other kept totals follow each statement's transition table at a cost
-- in proportion to its rows, so deferring them would save nothing.)

-- The statement giving the customers whose totals the policies `changed` selects (tenant_id,
-- customer_id) move, as two arrays for customer_totals_refresh (0018_customer-totals-follow.sql).
CREATE FUNCTION customer_totals_touched(changed text) RETURNS text LANGUAGE sql STABLE
AS $fn$ SELECT format('SELECT array_agg(tenant_id), array_agg(customer_id)
    FROM (SELECT DISTINCT tenant_id, customer_id FROM (%s) changed) touched', changed) $fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION customer_totals_follow() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tenant_ids uuid[];
  customer_ids uuid[];
BEGIN
  IF TG_OP = 'INSERT' AND current_setting('app.customer_totals_deferred', true) = 'on' THEN
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
-- What the trigger would have done had `policy_ids`, inserted while the customer totals were
-- deferred, been inserted by one statement.
CREATE FUNCTION customer_totals_catch_up(policy_ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  tenant_ids uuid[];
  customer_ids uuid[];
BEGIN
  EXECUTE customer_totals_touched('SELECT tenant_id, customer_id FROM policies JOIN unnest($1) AS inserted(id) USING (id)')
    INTO tenant_ids, customer_ids USING policy_ids;
  IF customer_ids IS NOT NULL THEN
    PERFORM customer_totals_refresh(tenant_ids, customer_ids);
  END IF;
END
$$;

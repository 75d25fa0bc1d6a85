-- An unpaid instalment adds nothing to a policy's history months (only what was paid, and when, is
-- read from instalments), so adding or deleting one need not work the policy's months out again.
-- A new policy's schedule is all unpaid: an import of 10,000 policies and their 45,000 instalments
-- spent half its time recomputing, after the instalments, the months the policies had just been given.
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
  EXECUTE format('SELECT coalesce(array_agg(DISTINCT policy_id), ''{}'') FROM (%s) changed', changed)
    INTO affected;
  IF cardinality(affected) > 0 THEN
    PERFORM policy_months_refresh(affected);
  END IF;
  RETURN NULL;
END
$$;

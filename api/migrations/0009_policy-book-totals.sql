-- A renewal is now recorded on the term it renews (renewed_to_id), so a policy's status is read from
-- its own row. The old link on the renewal goes in the next migration.
UPDATE policies renewed SET renewed_to_id = renewal.id
FROM policies renewal
WHERE renewal.renewed_from_id = renewed.id;
--> statement-breakpoint
-- The one definition of what a policy earns, used by every list, total and report (commission.ts
-- names these). PostgreSQL's round() on numeric rounds halves away from zero, which for these
-- non-negative amounts is half-up.
CREATE FUNCTION policy_expected_commission(net_premium numeric, commission_percentage numeric)
RETURNS numeric LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT round(net_premium * commission_percentage / 100, 2) $$;
--> statement-breakpoint
-- What the insurer owes so far. Full policy: the expected commission once the whole premium is paid,
-- else nothing. Pro rata: the expected commission x amount paid / total premium, to the cent.
CREATE FUNCTION policy_received_commission(
  payment_method text, expected numeric, amount_paid numeric, total_premium numeric
)
RETURNS numeric LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT CASE
    WHEN payment_method = 'pro_rata' THEN round(expected * amount_paid / total_premium, 2)
    WHEN amount_paid >= total_premium THEN expected
    ELSE 0.00
  END
$$;
--> statement-breakpoint
-- Cancellation wins over renewal, as in the status the application reads (policies/status.ts).
CREATE FUNCTION policy_standing(cancelled_at date, renewed_to_id uuid)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT CASE
    WHEN cancelled_at IS NOT NULL THEN 'cancelled'
    WHEN renewed_to_id IS NOT NULL THEN 'renewed'
    ELSE 'open'
  END
$$;
--> statement-breakpoint
-- Keeps policy_book_totals in step with every statement that writes policies: the rows it removed
-- count negatively, the rows it added positively, summed per group in one upsert. Groups whose
-- figures did not move (a note edited, say) are not written, so such edits take no lock on them.
CREATE FUNCTION policy_book_follow() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changes text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT added.*, 1 AS sign FROM added'
    WHEN 'DELETE' THEN 'SELECT removed.*, -1 AS sign FROM removed'
    ELSE 'SELECT added.*, 1 AS sign FROM added UNION ALL SELECT removed.*, -1 FROM removed'
  END;
BEGIN
  EXECUTE format($upsert$
    INSERT INTO policy_book_totals AS book
    SELECT * FROM (
      SELECT tenant_id, company_id, start_date, end_date, standing,
        sum(sign)::integer AS policies,
        sum(sign * total_premium) AS total_premium,
        sum(sign * expected) AS expected_commission,
        sum(sign * policy_received_commission('full_policy', expected, amount_paid, total_premium))
          AS received_full_policy,
        sum(sign * policy_received_commission('pro_rata', expected, amount_paid, total_premium))
          AS received_pro_rata
      FROM (
        SELECT change.*,
          policy_standing(cancelled_at, renewed_to_id) AS standing,
          policy_expected_commission(net_premium, commission_percentage) AS expected
        FROM (%s) change
      ) changed
      GROUP BY tenant_id, company_id, start_date, end_date, standing
    ) moved
    WHERE (policies, total_premium, expected_commission, received_full_policy, received_pro_rata)
      IS DISTINCT FROM (0, 0, 0, 0, 0)
    -- Groups locked in one order, so two statements that move several groups cannot deadlock.
    ORDER BY tenant_id, company_id, start_date, end_date, standing
    ON CONFLICT ON CONSTRAINT policy_book_totals_pkey DO UPDATE SET
      policies = book.policies + excluded.policies,
      total_premium = book.total_premium + excluded.total_premium,
      expected_commission = book.expected_commission + excluded.expected_commission,
      received_full_policy = book.received_full_policy + excluded.received_full_policy,
      received_pro_rata = book.received_pro_rata + excluded.received_pro_rata
  $upsert$, changes);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER policy_book_after_insert AFTER INSERT ON policies
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION policy_book_follow();
--> statement-breakpoint
CREATE TRIGGER policy_book_after_update AFTER UPDATE ON policies
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION policy_book_follow();
--> statement-breakpoint
CREATE TRIGGER policy_book_after_delete AFTER DELETE ON policies
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION policy_book_follow();
--> statement-breakpoint
-- The book as it stands, summed the way the trigger sums each change.
INSERT INTO policy_book_totals
SELECT tenant_id, company_id, start_date, end_date, standing,
  count(*)::integer,
  sum(total_premium),
  sum(expected),
  sum(policy_received_commission('full_policy', expected, amount_paid, total_premium)),
  sum(policy_received_commission('pro_rata', expected, amount_paid, total_premium))
FROM (
  SELECT policies.*,
    policy_standing(cancelled_at, renewed_to_id) AS standing,
    policy_expected_commission(net_premium, commission_percentage) AS expected
  FROM policies
) book
GROUP BY tenant_id, company_id, start_date, end_date, standing;
--> statement-breakpoint
-- Tenant-owned (see 0001_tenant-isolation.sql). The trigger runs as the writer of the policies, so
-- inside a tenant transaction it too can only touch that agency's totals.
GRANT SELECT, INSERT, UPDATE ON policy_book_totals TO coverdesk_app;
--> statement-breakpoint
ALTER TABLE policy_book_totals ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE policy_book_totals FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON policy_book_totals
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);

ALTER TABLE "policy_book_totals" ADD COLUMN "net_premium" numeric DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "policy_book_totals" ADD COLUMN "amount_paid" numeric DEFAULT '0' NOT NULL;--> statement-breakpoint
-- The commission report's totals read the book too: the trigger now also sums the net premiums and
-- what has been paid, in the same one upsert (the rest as in 0009_policy-book-totals.sql).
CREATE OR REPLACE FUNCTION policy_book_follow() RETURNS trigger LANGUAGE plpgsql AS $$
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
  $upsert$, changes);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The book as it stands. Row-level security is forced on the table even for its owner, and a
-- migration runs in no agency's scope, so it is lifted for this one statement of the transaction.
ALTER TABLE policy_book_totals NO FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
UPDATE policy_book_totals book SET net_premium = sums.net_premium, amount_paid = sums.amount_paid
FROM (
  SELECT tenant_id, company_id, start_date, end_date,
    policy_standing(cancelled_at, renewed_to_id) AS standing,
    sum(net_premium) AS net_premium, sum(amount_paid) AS amount_paid
  FROM policies
  GROUP BY 1, 2, 3, 4, 5
) sums
WHERE (book.tenant_id, book.company_id, book.start_date, book.end_date, book.standing)
  = (sums.tenant_id, sums.company_id, sums.start_date, sums.end_date, sums.standing);
--> statement-breakpoint
ALTER TABLE policy_book_totals FORCE ROW LEVEL SECURITY;

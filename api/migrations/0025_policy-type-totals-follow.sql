-- Keeps policy_type_totals in step with every statement that writes policies, the way
-- policy_book_follow (0009) keeps the book totals: the rows a statement removed count negatively, the
-- rows it added positively, summed per group in one upsert; groups that did not move are not written.
CREATE FUNCTION policy_type_totals_follow() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changes text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT added.*, 1 AS sign FROM added'
    WHEN 'DELETE' THEN 'SELECT removed.*, -1 AS sign FROM removed'
    ELSE 'SELECT added.*, 1 AS sign FROM added UNION ALL SELECT removed.*, -1 FROM removed'
  END;
BEGIN
  EXECUTE format($upsert$
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
  $upsert$, changes);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER policy_type_totals_after_insert AFTER INSERT ON policies
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION policy_type_totals_follow();
--> statement-breakpoint
CREATE TRIGGER policy_type_totals_after_update AFTER UPDATE ON policies
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION policy_type_totals_follow();
--> statement-breakpoint
CREATE TRIGGER policy_type_totals_after_delete AFTER DELETE ON policies
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION policy_type_totals_follow();
--> statement-breakpoint
-- The book as it stands, summed the way the trigger sums each change.
INSERT INTO policy_type_totals
SELECT tenant_id, policy_type_id, start_date, end_date, policy_standing(cancelled_at, renewed_to_id),
  count(*)::integer, sum(total_premium)
FROM policies
GROUP BY tenant_id, policy_type_id, start_date, end_date, policy_standing(cancelled_at, renewed_to_id);
--> statement-breakpoint
-- Tenant-owned (see 0001_tenant-isolation.sql). The trigger runs as the writer of the policies, so
-- inside a tenant transaction it too can only touch that agency's totals.
GRANT SELECT, INSERT, UPDATE ON policy_type_totals TO coverdesk_app;
--> statement-breakpoint
ALTER TABLE policy_type_totals ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE policy_type_totals FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON policy_type_totals
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);

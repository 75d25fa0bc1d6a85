-- Keeps calendar_day_totals in step with every statement that writes policies or instalments, the
-- way policy_type_totals_follow (0025) keeps the type totals: the rows a statement removed count
-- negatively, the rows it added positively, summed per day in one upsert; days that did not move are
-- not written. A policy counts on its end date while open (neither cancelled nor renewed), an
-- instalment on its due date while not paid, with what is left to pay.
CREATE FUNCTION calendar_day_totals_follow() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changes text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT added.*, 1 AS sign FROM added'
    WHEN 'DELETE' THEN 'SELECT removed.*, -1 AS sign FROM removed'
    ELSE 'SELECT added.*, 1 AS sign FROM added UNION ALL SELECT removed.*, -1 FROM removed'
  END;
  counted text := CASE TG_TABLE_NAME
    WHEN 'policies' THEN $counted$
      SELECT tenant_id, 'renewal' AS kind, end_date AS day, sign, 0 AS amount FROM (%s) change
      WHERE cancelled_at IS NULL AND renewed_to_id IS NULL $counted$
    ELSE $counted$
      SELECT tenant_id, 'installment' AS kind, due_date AS day, sign, amount_due - amount_paid AS amount
      FROM (%s) change WHERE status <> 'paid' $counted$
  END;
BEGIN
  EXECUTE format($upsert$
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
  $upsert$, format(counted, changes));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER calendar_day_totals_after_insert AFTER INSERT ON policies
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION calendar_day_totals_follow();
--> statement-breakpoint
CREATE TRIGGER calendar_day_totals_after_update AFTER UPDATE ON policies
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION calendar_day_totals_follow();
--> statement-breakpoint
CREATE TRIGGER calendar_day_totals_after_delete AFTER DELETE ON policies
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION calendar_day_totals_follow();
--> statement-breakpoint
CREATE TRIGGER calendar_day_totals_after_insert AFTER INSERT ON installments
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION calendar_day_totals_follow();
--> statement-breakpoint
CREATE TRIGGER calendar_day_totals_after_update AFTER UPDATE ON installments
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION calendar_day_totals_follow();
--> statement-breakpoint
CREATE TRIGGER calendar_day_totals_after_delete AFTER DELETE ON installments
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION calendar_day_totals_follow();
--> statement-breakpoint
-- The calendar as it stands, counted the way the trigger counts each change.
INSERT INTO calendar_day_totals
SELECT tenant_id, 'renewal', end_date, count(*)::integer, 0
FROM policies WHERE cancelled_at IS NULL AND renewed_to_id IS NULL
GROUP BY tenant_id, end_date
UNION ALL
SELECT tenant_id, 'installment', due_date, count(*)::integer, sum(amount_due - amount_paid)
FROM installments WHERE status <> 'paid'
GROUP BY tenant_id, due_date;
--> statement-breakpoint
-- Tenant-owned (see 0001_tenant-isolation.sql). The triggers run as the writer of the policies and
-- instalments, so inside a tenant transaction they too can only touch that agency's days.
GRANT SELECT, INSERT, UPDATE ON calendar_day_totals TO coverdesk_app;
--> statement-breakpoint
ALTER TABLE calendar_day_totals ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE calendar_day_totals FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON calendar_day_totals
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);

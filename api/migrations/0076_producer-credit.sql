-- A producer's credit stays with the business they wrote (issue 49). Who services a policy term
-- (`assigned_to`) and who is credited for it (`producer_id`, with the share in force for them the day
-- the term was written, `producer_share`) are apart: handing a member's book to another moves the
-- servicing, never the credit, so the producers' report of a past period never changes.
--
-- A member's share is dated: `member_commission_shares` holds each change, effective from a day (the
-- terms written from that day on take it);
-- before their first change a member's share is `users.commission_split_percentage`, which the team
-- no longer changes (it is the share a member started with, or had when shares became dated).
CREATE TABLE "member_commission_shares" (
  "tenant_id" uuid NOT NULL REFERENCES "tenants"("id") ON DELETE CASCADE,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "effective_from" date NOT NULL,
  "share" numeric(5, 2) NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "member_commission_shares_pkey" PRIMARY KEY ("user_id", "effective_from")
);
--> statement-breakpoint
CREATE INDEX "member_commission_shares_tenant_idx" ON "member_commission_shares" ("tenant_id");
--> statement-breakpoint
-- Tenant-owned (see 0001_tenant-isolation.sql). Not part of any one member's book: the producers'
-- report and the team read it for the whole agency.
GRANT SELECT, INSERT, UPDATE, DELETE ON member_commission_shares TO coverdesk_app;
--> statement-breakpoint
ALTER TABLE member_commission_shares ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE member_commission_shares FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON member_commission_shares
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);
--> statement-breakpoint
DO $$
BEGIN
  EXECUTE format(
    'CREATE POLICY platform_read ON member_commission_shares FOR SELECT TO %I USING (current_setting(''app.platform_read'', true) = ''on'')',
    current_user);
END
$$;
--> statement-breakpoint
-- A term written for a member records their share in force that day, read in the agency's
-- transaction: the view gives it the share members started with.
CREATE OR REPLACE VIEW agency_users WITH (security_barrier) AS
  SELECT id, tenant_id, first_name, last_name, email, role,
    (disabled_at IS NULL AND deactivated_at IS NULL) AS is_active, date_joined,
    commission_split_percentage
  FROM users
  WHERE tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid;
--> statement-breakpoint
-- A member's share in force on a day: their latest change effective by then, else the share they
-- started with. Row-level security keeps it to the agency's members.
CREATE FUNCTION member_share_on(member uuid, on_day date) RETURNS numeric(5, 2)
LANGUAGE sql STABLE AS $$
  SELECT coalesce(
    (SELECT s.share FROM member_commission_shares s
      WHERE s.user_id = member AND s.effective_from <= on_day
      ORDER BY s.effective_from DESC LIMIT 1),
    (SELECT u.commission_split_percentage FROM agency_users u WHERE u.id = member))
$$;
--> statement-breakpoint
ALTER TABLE "policies" ADD COLUMN "producer_id" uuid;
--> statement-breakpoint
ALTER TABLE "policies" ADD COLUMN "producer_share" numeric(5, 2);
--> statement-breakpoint
-- Terms written before: credited to their assignee, at the member's share as it is now.
UPDATE "policies" p SET "producer_id" = p."assigned_to",
  "producer_share" = (SELECT u.commission_split_percentage FROM "users" u WHERE u.id = p."assigned_to")
WHERE p."assigned_to" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "policies_tenant_producer_idx" ON "policies" ("tenant_id", "producer_id");
--> statement-breakpoint
-- Whatever writes a term (a new policy, a renewal, an import, the demo), it is credited to the
-- member it is assigned to, at their share in force on the agency's day it is written (the tenant
-- transaction's time zone): the share agreed when the business was done, whatever dates it covers.
CREATE FUNCTION policy_producer_credit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.producer_id IS NULL THEN
    NEW.producer_id := NEW.assigned_to;
  END IF;
  IF NEW.producer_id IS NOT NULL AND NEW.producer_share IS NULL THEN
    NEW.producer_share := member_share_on(NEW.producer_id, current_date);
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER policy_producer_credit BEFORE INSERT ON policies
  FOR EACH ROW EXECUTE FUNCTION policy_producer_credit();

CREATE TABLE "team_invitations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	CONSTRAINT "team_invitations_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "role" text DEFAULT 'agent' NOT NULL;--> statement-breakpoint
-- The registrant of each agency becomes its owner; the shared demo account too, with the limits
-- the demo keeps for itself. Everyone else was a lone user of their agency as well.
UPDATE "users" SET "role" = 'owner' WHERE "is_owner" OR "is_demo_user";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "is_owner";--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_role_check" CHECK ("role" IN ('owner', 'manager', 'agent', 'viewer'));--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "deactivated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "commission_split_percentage" numeric(5, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "assigned_to" uuid;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "assigned_to" uuid;--> statement-breakpoint
ALTER TABLE "policies" ADD COLUMN "assigned_to" uuid;--> statement-breakpoint
ALTER TABLE "policies" ADD COLUMN "producer_split_percentage" numeric(5, 2);--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "agents_see_own_book" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "team_invitations" ADD CONSTRAINT "team_invitations_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_invitations" ADD CONSTRAINT "team_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "team_invitations_tenant_idx" ON "team_invitations" USING btree ("tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "team_invitations_open_unique" ON "team_invitations" USING btree ("tenant_id",lower("email")) WHERE accepted_at is null;--> statement-breakpoint
CREATE INDEX "claims_tenant_assigned_idx" ON "claims" USING btree ("tenant_id","assigned_to");--> statement-breakpoint
CREATE INDEX "customers_tenant_assigned_idx" ON "customers" USING btree ("tenant_id","assigned_to");--> statement-breakpoint
CREATE INDEX "policies_tenant_assigned_idx" ON "policies" USING btree ("tenant_id","assigned_to");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_tenant_id_id_key" UNIQUE("tenant_id","id");;--> statement-breakpoint
-- An assignee is a member of the row's own agency; their leaving clears only the assignee.
ALTER TABLE "customers" ADD CONSTRAINT "customers_assigned_to_fk" FOREIGN KEY ("tenant_id", "assigned_to")
  REFERENCES "users" ("tenant_id", "id") ON DELETE SET NULL ("assigned_to");--> statement-breakpoint
ALTER TABLE "policies" ADD CONSTRAINT "policies_assigned_to_fk" FOREIGN KEY ("tenant_id", "assigned_to")
  REFERENCES "users" ("tenant_id", "id") ON DELETE SET NULL ("assigned_to");--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_assigned_to_fk" FOREIGN KEY ("tenant_id", "assigned_to")
  REFERENCES "users" ("tenant_id", "id") ON DELETE SET NULL ("assigned_to");--> statement-breakpoint
ALTER TABLE "policies" ADD CONSTRAINT "policies_producer_split_check"
  CHECK ("producer_split_percentage" BETWEEN 0 AND 100);--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_commission_split_check"
  CHECK ("commission_split_percentage" BETWEEN 0 AND 100);--> statement-breakpoint
-- The book so far was the owner's: each agency's first owner takes what it holds.
UPDATE "customers" c SET "assigned_to" = (SELECT u.id FROM "users" u WHERE u.tenant_id = c.tenant_id
  AND u.role = 'owner' ORDER BY u.date_joined LIMIT 1);--> statement-breakpoint
UPDATE "policies" p SET "assigned_to" = (SELECT u.id FROM "users" u WHERE u.tenant_id = p.tenant_id
  AND u.role = 'owner' ORDER BY u.date_joined LIMIT 1);--> statement-breakpoint
UPDATE "claims" c SET "assigned_to" = (SELECT u.id FROM "users" u WHERE u.tenant_id = c.tenant_id
  AND u.role = 'owner' ORDER BY u.date_joined LIMIT 1);--> statement-breakpoint
-- Tenant transactions see their colleagues' roles and whether they are active (assignees must be).
CREATE OR REPLACE VIEW agency_users WITH (security_barrier) AS
  SELECT id, tenant_id, first_name, last_name, email, role,
    (disabled_at IS NULL AND deactivated_at IS NULL) AS is_active, date_joined
  FROM users
  WHERE tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid;

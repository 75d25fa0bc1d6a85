CREATE TABLE "claim_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"claim_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"from_status" text,
	"to_status" text,
	"note" text DEFAULT '' NOT NULL,
	"author_id" uuid,
	"author_name" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claims" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"policy_id" uuid NOT NULL,
	"claim_number" text NOT NULL,
	"insurer_reference" text DEFAULT '' NOT NULL,
	"incident_date" date NOT NULL,
	"reported_date" date DEFAULT current_date NOT NULL,
	"claim_type" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"location" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"amount_claimed" numeric(14, 2) NOT NULL,
	"amount_approved" numeric(14, 2),
	"amount_paid" numeric(14, 2) DEFAULT '0' NOT NULL,
	"adjuster_name" text DEFAULT '' NOT NULL,
	"adjuster_phone" text DEFAULT '' NOT NULL,
	"adjuster_email" text DEFAULT '' NOT NULL,
	"closed_on" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "claims_tenant_id_id_key" UNIQUE("tenant_id","id"),
	CONSTRAINT "claims_number_key" UNIQUE("tenant_id","claim_number")
);
--> statement-breakpoint
ALTER TABLE "claim_events" ADD CONSTRAINT "claim_events_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_events" ADD CONSTRAINT "claim_events_claim_fk" FOREIGN KEY ("tenant_id","claim_id") REFERENCES "public"."claims"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_policy_fk" FOREIGN KEY ("tenant_id","policy_id") REFERENCES "public"."policies"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "claim_events_claim_idx" ON "claim_events" USING btree ("tenant_id","claim_id","created_at");--> statement-breakpoint
CREATE INDEX "claims_tenant_reported_idx" ON "claims" USING btree ("tenant_id","reported_date","id");--> statement-breakpoint
CREATE INDEX "claims_tenant_incident_idx" ON "claims" USING btree ("tenant_id","incident_date");--> statement-breakpoint
CREATE INDEX "claims_tenant_policy_idx" ON "claims" USING btree ("tenant_id","policy_id");--> statement-breakpoint
CREATE INDEX "claims_tenant_status_idx" ON "claims" USING btree ("tenant_id","status");
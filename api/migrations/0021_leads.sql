CREATE TABLE "lead_activities" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"lead_id" uuid NOT NULL,
	"activity_type" text NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"from_status" text,
	"to_status" text,
	"user_id" uuid,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "leads" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"business_name" text DEFAULT '' NOT NULL,
	"display_name" text GENERATED ALWAYS AS (case when business_name <> '' then business_name else trim(first_name || ' ' || last_name) end) STORED NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"source" text DEFAULT 'other' NOT NULL,
	"policy_type_id" uuid,
	"estimated_premium" numeric(14, 2),
	"status" text DEFAULT 'new' NOT NULL,
	"lost_reason" text DEFAULT '' NOT NULL,
	"next_follow_up_at" timestamp with time zone,
	"assigned_user_id" uuid,
	"notes" text DEFAULT '' NOT NULL,
	"customer_id" uuid,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "leads_tenant_id_id_key" UNIQUE("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "lead_activities" ADD CONSTRAINT "lead_activities_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_activities" ADD CONSTRAINT "lead_activities_lead_fk" FOREIGN KEY ("tenant_id","lead_id") REFERENCES "public"."leads"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lead_activities_lead_idx" ON "lead_activities" USING btree ("tenant_id","lead_id","occurred_at");--> statement-breakpoint
CREATE UNIQUE INDEX "leads_customer_key" ON "leads" USING btree ("tenant_id","customer_id") WHERE customer_id is not null;--> statement-breakpoint
CREATE INDEX "leads_tenant_name_idx" ON "leads" USING btree ("tenant_id",lower("display_name"),"id");--> statement-breakpoint
CREATE INDEX "leads_tenant_created_idx" ON "leads" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "leads_tenant_status_idx" ON "leads" USING btree ("tenant_id","status");--> statement-breakpoint
CREATE INDEX "leads_tenant_follow_up_idx" ON "leads" USING btree ("tenant_id","next_follow_up_at");--> statement-breakpoint
CREATE INDEX "leads_tenant_closed_idx" ON "leads" USING btree ("tenant_id","closed_at") WHERE closed_at is not null;--> statement-breakpoint
CREATE INDEX "leads_tenant_email_idx" ON "leads" USING btree ("tenant_id","email");
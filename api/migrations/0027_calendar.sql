CREATE TABLE "calendar_feeds" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"secret_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "calendar_feeds_secret_hash_unique" UNIQUE("secret_hash")
);
--> statement-breakpoint
CREATE TABLE "meetings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"title" text NOT NULL,
	"all_day" boolean DEFAULT false NOT NULL,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"start_date" date,
	"end_date" date,
	"customer_id" uuid,
	"lead_id" uuid,
	"location" text DEFAULT '' NOT NULL,
	"video_url" text DEFAULT '' NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"reminder_minutes" integer,
	"owner_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "meetings_tenant_id_id_key" UNIQUE("tenant_id","id"),
	CONSTRAINT "meetings_times_check" CHECK (case when all_day
        then start_date is not null and end_date >= start_date and starts_at is null and ends_at is null
        else starts_at is not null and ends_at > starts_at and start_date is null and end_date is null end)
);
--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD CONSTRAINT "calendar_feeds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meetings" ADD CONSTRAINT "meetings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "meetings_tenant_starts_idx" ON "meetings" USING btree ("tenant_id","starts_at") WHERE not all_day;--> statement-breakpoint
CREATE INDEX "meetings_tenant_start_date_idx" ON "meetings" USING btree ("tenant_id","start_date") WHERE all_day;
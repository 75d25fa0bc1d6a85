CREATE TABLE "import_mappings" (
	"tenant_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"mapping" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "import_mappings_tenant_id_kind_pk" PRIMARY KEY("tenant_id","kind")
);
--> statement-breakpoint
CREATE TABLE "imports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"file_name" text NOT NULL,
	"file_hash" text NOT NULL,
	"file" "bytea" NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"headers" jsonb NOT NULL,
	"columns" jsonb NOT NULL,
	"duplicates" text DEFAULT 'skip' NOT NULL,
	"all_or_nothing" boolean DEFAULT true NOT NULL,
	"total_rows" integer NOT NULL,
	"sample" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"failures" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"detail" text DEFAULT '' NOT NULL,
	"started_by" text,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "imports_tenant_kind_hash_key" UNIQUE("tenant_id","kind","file_hash")
);
--> statement-breakpoint
ALTER TABLE "import_mappings" ADD CONSTRAINT "import_mappings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "installments_paid_idx" ON "installments" USING btree ("policy_id","paid_date") WHERE amount_paid > 0 and paid_date is not null;
CREATE TABLE "document_file_releases" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "document_file_releases_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" uuid NOT NULL,
	"sha256" text NOT NULL,
	"released_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"customer_id" uuid,
	"policy_id" uuid,
	"claim_id" uuid,
	"lead_id" uuid,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"category" text DEFAULT 'other' NOT NULL,
	"uploaded_by" uuid,
	"uploaded_by_name" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "documents_attached_check" CHECK (num_nonnulls("documents"."customer_id", "documents"."policy_id", "documents"."claim_id", "documents"."lead_id") > 0)
);
--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_customer_fk" FOREIGN KEY ("tenant_id","customer_id") REFERENCES "public"."customers"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_policy_fk" FOREIGN KEY ("tenant_id","policy_id") REFERENCES "public"."policies"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_claim_fk" FOREIGN KEY ("tenant_id","claim_id") REFERENCES "public"."claims"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_lead_fk" FOREIGN KEY ("tenant_id","lead_id") REFERENCES "public"."leads"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_file_releases_released_idx" ON "document_file_releases" USING btree ("released_at");--> statement-breakpoint
CREATE INDEX "documents_tenant_customer_idx" ON "documents" USING btree ("tenant_id","customer_id","created_at");--> statement-breakpoint
CREATE INDEX "documents_tenant_policy_idx" ON "documents" USING btree ("tenant_id","policy_id","created_at");--> statement-breakpoint
CREATE INDEX "documents_tenant_claim_idx" ON "documents" USING btree ("tenant_id","claim_id","created_at");--> statement-breakpoint
CREATE INDEX "documents_tenant_lead_idx" ON "documents" USING btree ("tenant_id","lead_id","created_at");--> statement-breakpoint
CREATE INDEX "documents_tenant_sha256_idx" ON "documents" USING btree ("tenant_id","sha256");
DROP INDEX "customers_search_text_idx";--> statement-breakpoint
DROP INDEX "leads_search_text_idx";--> statement-breakpoint
DROP INDEX "claims_number_key_idx";--> statement-breakpoint
DROP INDEX "customers_phone_digits_idx";--> statement-breakpoint
DROP INDEX "leads_phone_digits_idx";--> statement-breakpoint
DROP INDEX "policies_number_key_idx";--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "name_key" text GENERATED ALWAYS AS (lower(case when customer_type = 'business' and business_name <> '' then business_name else first_name || ' ' || last_name end)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "email_key" text GENERATED ALWAYS AS (lower(email)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "name_key" text GENERATED ALWAYS AS (lower(case when business_name <> '' then business_name else trim(first_name || ' ' || last_name) end)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "email_key" text GENERATED ALWAYS AS (lower(email)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "customers_name_key_idx" ON "customers" USING gin ("tenant_id","name_key" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customers_email_key_idx" ON "customers" USING gin ("tenant_id","email_key" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "leads_name_key_idx" ON "leads" USING gin ("tenant_id","name_key" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "leads_email_key_idx" ON "leads" USING gin ("tenant_id","email_key" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "claims_number_key_idx" ON "claims" USING gin ("tenant_id","number_key" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customers_phone_digits_idx" ON "customers" USING gin ("tenant_id","phone_digits" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "leads_phone_digits_idx" ON "leads" USING gin ("tenant_id","phone_digits" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "policies_number_key_idx" ON "policies" USING gin ("tenant_id","number_key" gin_trgm_ops);--> statement-breakpoint
ALTER TABLE "customers" DROP COLUMN "search_text";--> statement-breakpoint
ALTER TABLE "leads" DROP COLUMN "search_text";
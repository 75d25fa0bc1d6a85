ALTER TABLE "claims" ADD COLUMN "number_key" text GENERATED ALWAYS AS (lower(regexp_replace(claim_number, '[^[:alnum:]]', '', 'g'))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(case when customer_type = 'business' and business_name <> '' then business_name else first_name || ' ' || last_name end || ' ' || email)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "phone_digits" text GENERATED ALWAYS AS (regexp_replace(phone, '[^0-9]', '', 'g')) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(case when business_name <> '' then business_name else trim(first_name || ' ' || last_name) end || ' ' || email)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "phone_digits" text GENERATED ALWAYS AS (regexp_replace(phone, '[^0-9]', '', 'g')) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "policies" ADD COLUMN "number_key" text GENERATED ALWAYS AS (lower(regexp_replace(policy_number, '[^[:alnum:]]', '', 'g'))) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "claims_number_key_idx" ON "claims" USING gin ("number_key" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customers_search_text_idx" ON "customers" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customers_phone_digits_idx" ON "customers" USING gin ("phone_digits" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "leads_search_text_idx" ON "leads" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "leads_phone_digits_idx" ON "leads" USING gin ("phone_digits" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "policies_number_key_idx" ON "policies" USING gin ("number_key" gin_trgm_ops);
DROP INDEX "claims_number_key_idx";--> statement-breakpoint
DROP INDEX "customers_search_text_idx";--> statement-breakpoint
DROP INDEX "customers_phone_digits_idx";--> statement-breakpoint
DROP INDEX "leads_search_text_idx";--> statement-breakpoint
DROP INDEX "leads_phone_digits_idx";--> statement-breakpoint
DROP INDEX "policies_number_key_idx";--> statement-breakpoint
CREATE INDEX "claims_number_key_idx" ON "claims" USING gin ("tenant_id","number_key" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customers_search_text_idx" ON "customers" USING gin ("tenant_id","search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customers_phone_digits_idx" ON "customers" USING gin ("tenant_id","phone_digits" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "leads_search_text_idx" ON "leads" USING gin ("tenant_id","search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "leads_phone_digits_idx" ON "leads" USING gin ("tenant_id","phone_digits" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "policies_number_key_idx" ON "policies" USING gin ("tenant_id","number_key" gin_trgm_ops);
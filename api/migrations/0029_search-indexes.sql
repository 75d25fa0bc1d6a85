-- Global search (api/src/modules/search/queries.ts): trigram indexes that find names, emails, phone
-- digits and policy and claim numbers by typo-tolerant similarity (`<%`) and substring (`LIKE`).
-- The expressions are the ones the search statement writes, word for word, so the planner can use
-- them. Insurers have no index: an agency has a handful, read through its tenant index.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "customers_search_text_idx" ON "customers"
  USING gin ((lower(display_name || ' ' || email)) gin_trgm_ops);
--> statement-breakpoint
-- A phone is matched on its digits alone, so "054-123 4567" finds "0541234567".
CREATE INDEX IF NOT EXISTS "customers_search_phone_idx" ON "customers"
  USING gin ((regexp_replace(phone, '[^0-9]', '', 'g')) gin_trgm_ops) WHERE phone <> '';
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "leads_search_text_idx" ON "leads"
  USING gin ((lower(display_name || ' ' || email)) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "leads_search_phone_idx" ON "leads"
  USING gin ((regexp_replace(phone, '[^0-9]', '', 'g')) gin_trgm_ops) WHERE phone <> '';
--> statement-breakpoint
-- Numbers are matched without their punctuation and case, so "p 4821" finds "P-4821".
CREATE INDEX IF NOT EXISTS "policies_search_number_idx" ON "policies"
  USING gin ((lower(regexp_replace(policy_number, '[^[:alnum:]]', '', 'g'))) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "claims_search_number_idx" ON "claims"
  USING gin ((lower(regexp_replace(claim_number, '[^[:alnum:]]', '', 'g'))) gin_trgm_ops);

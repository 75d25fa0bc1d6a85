-- Search finds a policy by what it insures (a vehicle, an address), word by word and typo-tolerant
-- like a name: a stored lower-case copy with its agency-and-trigram index, as the other search columns
-- (db/search-columns.ts).
ALTER TABLE "policies" ADD COLUMN "insured_item_key" text GENERATED ALWAYS AS (lower(insured_item)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "policies_insured_item_key_idx" ON "policies" USING gin ("tenant_id","insured_item_key" gin_trgm_ops);
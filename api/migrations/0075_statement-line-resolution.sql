-- An unmatched statement line blocks acceptance until the broker resolves it: matched to a policy,
-- marked as another agency's ("not ours"), or written off with the reason. A resolved line keeps no
-- policy (matching it clears the resolution), and a write-off always says why.
ALTER TABLE "statement_lines" ADD COLUMN "resolution" text;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD COLUMN "resolution_reason" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD CONSTRAINT "statement_lines_resolution_check" CHECK (
  ("resolution" IS NULL AND "resolution_reason" = '')
  OR ("resolution" = 'not_ours' AND "policy_id" IS NULL)
  OR ("resolution" = 'written_off' AND "policy_id" IS NULL AND "resolution_reason" <> ''));

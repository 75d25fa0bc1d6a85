-- Global search (api/src/modules/search/queries.ts) finds names, emails, phone digits and policy
-- and claim numbers by typo-tolerant word similarity (`<%`), on trigram indexes over stored columns
-- that the next migration adds.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
-- Under row-level security PostgreSQL uses a condition as an index condition only when its function
-- is LEAKPROOF (it could otherwise be run on another agency's rows before the policy filters them).
-- `<%` compares two texts and raises no error that depends on them, so it is declared so; only a
-- superuser may. Without it search still answers the same, reading the agency's rows one by one.
DO $$
BEGIN
  IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    ALTER FUNCTION word_similarity_op(text, text) LEAKPROOF;
  END IF;
END
$$;

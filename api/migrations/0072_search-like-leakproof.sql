-- Search finds a policy or claim number by any part of it (`number_key LIKE '%4821%'`, on the trigram
-- indexes of 0037_search-columns.sql). Under row-level security PostgreSQL uses a condition as an
-- index condition only when its function is LEAKPROOF (0036_search-trigrams.sql), and `textlike` is
-- not declared so: every search read every agency's policies, 120,000 rows for 280 ms on a large
-- database, where the index answers in 2 ms. LIKE raises an error only for a pattern that ends with
-- its escape character, whatever the row holds, so it reveals nothing of the rows it is run on.
-- Only a superuser may declare it; without it search answers the same, slower.
DO $$
BEGIN
  IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    ALTER FUNCTION textlike(text, text) LEAKPROOF;
  END IF;
END
$$;

-- The search's trigram indexes hold the agency beside the text (the next migration rebuilds them),
-- so a search reads only its own agency's candidates: a GIN index takes a uuid only with btree_gin,
-- a trusted extension that ships with PostgreSQL (and PGlite, which loads it in db/client.ts).
CREATE EXTENSION IF NOT EXISTS btree_gin;

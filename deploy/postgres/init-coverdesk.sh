#!/bin/sh
# Run once by the postgres image, as its superuser, when the database volume is first created.
# Coverdesk connects as `coverdesk`, which owns the database but is no superuser: row-level security
# then holds for the app's own connections too. What only a superuser may do is done here instead.
set -eu

psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -v db="$POSTGRES_DB" -v password="$COVERDESK_DB_PASSWORD" <<'SQL'
CREATE ROLE coverdesk LOGIN PASSWORD :'password';
-- The role tenant transactions switch to. Its migration grants it to the connecting user again,
-- which takes the admin option.
CREATE ROLE coverdesk_app NOLOGIN NOBYPASSRLS;
GRANT coverdesk_app TO coverdesk WITH ADMIN OPTION;
ALTER DATABASE :"db" OWNER TO coverdesk;
ALTER SCHEMA public OWNER TO coverdesk;
-- Search's trigram indexes are used under row-level security only when the similarity operator is
-- LEAKPROOF, which only a superuser may declare (see the README's Production section).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS btree_gin;
ALTER FUNCTION word_similarity_op(text, text) LEAKPROOF;
SQL

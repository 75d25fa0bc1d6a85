#!/usr/bin/env bash
# `npm run test:plans`: the query-plan guard (api/test/plans). One agency's book grown through the
# product's own imports on a fresh PostgreSQL database, its hot statements run under EXPLAIN (ANALYZE,
# BUFFERS) and held to the buffers recorded in api/test/plans/budgets.json. Needs a PostgreSQL server in
# TEST_DATABASE_URL whose user may create databases; .ci/run runs it whenever its server answers.
# `PLAN_BUDGETS=record npm run test:plans` writes the buffers measured as the new budgets.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${TEST_DATABASE_URL:-}" ]; then
  echo "The query-plan guard needs a PostgreSQL server: set TEST_DATABASE_URL, e.g. postgres://root@127.0.0.1:5432/test" >&2
  exit 1
fi
cd api && npx vitest run --config vitest.plans.config.ts

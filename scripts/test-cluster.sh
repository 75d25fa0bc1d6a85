#!/usr/bin/env bash
# `npm run test:cluster`: two instances of the built app on one fresh PostgreSQL database behind
# nginx (api/test/cluster). Needs `npm run build` and a PostgreSQL server in TEST_DATABASE_URL whose
# user may create databases; .ci/run runs it whenever its PostgreSQL server answers.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${TEST_DATABASE_URL:-}" ]; then
  echo "The multi-instance test needs a PostgreSQL server: set TEST_DATABASE_URL, e.g. postgres://root@127.0.0.1:5432/test" >&2
  exit 1
fi
if [ ! -f api/dist/main.js ] || [ ! -f api/dist/backup.js ]; then
  echo "Build the app first: npm run build" >&2
  exit 1
fi
bash scripts/ensure-program.sh /usr/sbin/nginx nginx 'the multi-instance test'
cd api && npx vitest run --config vitest.cluster.config.ts

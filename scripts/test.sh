#!/usr/bin/env bash
# `npm test`: everything a change can break. Types, lint, unit and API tests on embedded PGlite
# (or on PostgreSQL when TEST_DATABASE_URL is set), then browser tests against the built app.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/ensure-chromium.sh
npm run typecheck
npm run lint
npm run test:unit
npm run build
npm run test:api
npm run test:e2e

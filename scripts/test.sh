#!/usr/bin/env bash
# `npm test`: everything a change can break. Types, lint, unit and API tests on embedded PGlite
# (or on PostgreSQL when TEST_DATABASE_URL is set), then browser tests against the built app.
# Ends with a table of each stage's wall time (scripts/stages.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/stages.sh

stage 'Chromium present' bash scripts/ensure-program.sh "${CHROMIUM_PATH:-/usr/bin/chromium}" chromium 'the browser tests' '  elsewhere:      install Chromium and set CHROMIUM_PATH to its executable'
stage 'Typecheck' npm run typecheck
stage 'Lint' npm run lint
stage 'Web unit tests' npm run test:unit
stage 'Build' npm run build
stage 'API tests (PGlite)' npm run test:api
stage 'Browser tests' npm run test:e2e

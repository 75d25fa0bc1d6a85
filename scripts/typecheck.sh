#!/usr/bin/env bash
# `npm run typecheck`: each TypeScript project checked at once, side by side, rather than one after
# another, so both cores work; fails when any of them does.
set -uo pipefail
cd "$(dirname "$0")/.."
pids=()
for project in contract api web e2e bench; do
  tsc -p "$project" &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
exit "$status"

# Sourced by scripts/test.sh and .ci/run: `stage NAME command...` runs one stage of the test run and
# notes its wall time; the table of every stage (and the total) is printed once, at the end of the
# outermost script, whether the run passed or stopped at a failing stage.
#
# The outermost script owns the table: it sets STAGE_TIMES to a file of its own, which the scripts
# it runs (`npm test` inside `.ci/run`) append to rather than print. Under the table come the ten
# slowest browser tests and API test files of the run (scripts/slowest.mjs).

if [[ -z "${STAGE_TIMES:-}" ]]; then
  STAGE_TIMES="$(mktemp -t coverdesk-stages.XXXXXX)"
  export STAGE_TIMES
  STAGE_TABLE_OWNER=$$
  STAGE_RUN_START=$SECONDS
  STAGE_RUN_EPOCH=$(date +%s)
  trap 'print_stage_table' EXIT
fi

stage() {
  local name="$1"
  shift
  echo "==> ${name}"
  local start=$SECONDS rc=0
  "$@" || rc=$?
  local took=$((SECONDS - start))
  # A stage of the script the outermost one ran (`npm test` in `.ci/run`) is indented under it.
  [[ "${STAGE_TABLE_OWNER:-}" == "$$" ]] || name="  ${name}"
  if ((rc == 0)); then
    printf '%s\t%s\tpassed\n' "$name" "$took" >>"$STAGE_TIMES"
  else
    printf '%s\t%s\tFAILED (exit %s)\n' "$name" "$took" "$rc" >>"$STAGE_TIMES"
    exit "$rc"
  fi
}

# A stage that did not run (no PostgreSQL server, say), listed so the table says why.
stage_skipped() {
  printf '%s\t-\t%s\n' "$1" "$2" >>"$STAGE_TIMES"
}

print_stage_table() {
  local rc=$?
  [[ "${STAGE_TABLE_OWNER:-}" == "$$" ]] || return "$rc"
  local total=$((SECONDS - STAGE_RUN_START))
  echo
  echo "Stage wall times ($(nproc) cores)"
  printf '| %-40s | %8s | %-20s |\n' 'Stage' 'Seconds' 'Result'
  printf '|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..42})" "$(printf -- '-%.0s' {1..10})" "$(printf -- '-%.0s' {1..22})"
  while IFS=$'\t' read -r name took result; do
    printf '| %-40s | %8s | %-20s |\n' "$name" "$took" "$result"
  done <"$STAGE_TIMES"
  printf '| %-40s | %8s | %-20s |\n' 'Total' "$total" "$([[ $rc == 0 ]] && echo passed || echo "FAILED (exit $rc)")"
  rm -f "$STAGE_TIMES"
  # Under it, where the time went: the slowest browser tests and API test files of this run.
  node scripts/slowest.mjs "$STAGE_RUN_EPOCH" || true
  return "$rc"
}

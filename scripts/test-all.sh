#!/usr/bin/env bash
# Every test the project has, in the order a failure is cheapest to find:
# lint, types, unit and integration tests (real service, Redis), browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each stage's wall time, and the slowest test files from the JSON reports, are printed at the
# end (also when a stage failed: what ran is still reported).
REPORTS="$PWD/.cache/test-all"
rm -rf "$REPORTS" && mkdir -p "$REPORTS"
STAGES=()
stage() {
  local name="$1" started=$SECONDS
  shift
  "$@"
  STAGES+=("$(printf '%5d s  %s' $((SECONDS - started)) "$name")")
}
summary() {
  echo
  echo "test:all stages (wall time):"
  printf '%s\n' "${STAGES[@]}"
  pnpm exec tsx scripts/slowest-tests.ts 15 "$REPORTS/vitest.json" "$REPORTS/vitest-cluster.json" \
    "$REPORTS/playwright.json" || true
}
CLEANUP=(summary)
trap 'for c in "${CLEANUP[@]}"; do $c; done' EXIT

stage lint pnpm lint
stage typecheck pnpm typecheck

# The real LiveKit server (loopback only) for the RTC-mode tests; stopped on exit when this
# script started it. Test suites read LIVEKIT_URL / LIVEKIT_API_KEY / LIVEKIT_API_SECRET.
if ! bash scripts/livekit.sh status >/dev/null; then
  bash scripts/livekit.sh start
  stop_livekit() { bash scripts/livekit.sh stop; }
  CLEANUP=(stop_livekit summary)
fi
LIVEKIT_URL="$(bash scripts/livekit.sh url)"
export LIVEKIT_URL LIVEKIT_API_KEY=devkey LIVEKIT_API_SECRET=secret

# The cluster project (three service nodes, HAProxy, Redis with Sentinel: a dozen processes) runs
# on its own after the others: beside the browser and service suites on 2 cores, its Redis and
# nodes can stall past their timeouts and a test then sees a store failover nobody caused.
stage 'vitest (all but cluster)' pnpm exec vitest run --project '!cluster' \
  --reporter=default --reporter=json --outputFile.json="$REPORTS/vitest.json"
stage 'vitest cluster' pnpm exec vitest run --project cluster \
  --reporter=default --reporter=json --outputFile.json="$REPORTS/vitest-cluster.json"
# End-to-end: the demo page in Chromium against the real service (two regions), token server
# and Host-mode relay (apps/e2e; needs `pnpm build`, which scripts/setup.sh runs).
export PLAYWRIGHT_JSON_OUTPUT_NAME="$REPORTS/playwright.json"
stage 'playwright e2e' pnpm --filter @avatar-drive/e2e test --reporter=list,json

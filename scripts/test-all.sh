#!/usr/bin/env bash
# Every test the project has, in the order a failure is cheapest to find:
# lint, types, unit and integration tests (real service, Redis), browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."

pnpm lint
pnpm typecheck

# The real LiveKit server (loopback only) for the RTC-mode tests; stopped on exit when this
# script started it. Test suites read LIVEKIT_URL / LIVEKIT_API_KEY / LIVEKIT_API_SECRET.
if ! bash scripts/livekit.sh status >/dev/null; then
  bash scripts/livekit.sh start
  trap 'bash scripts/livekit.sh stop' EXIT
fi
LIVEKIT_URL="$(bash scripts/livekit.sh url)"
export LIVEKIT_URL LIVEKIT_API_KEY=devkey LIVEKIT_API_SECRET=secret

# The cluster project (three service nodes, HAProxy, Redis with Sentinel: a dozen processes) runs
# on its own after the others: beside the browser and service suites on 2 cores, its Redis and
# nodes can stall past their timeouts and a test then sees a store failover nobody caused.
pnpm exec vitest run --project '!cluster'
pnpm exec vitest run --project cluster
# End-to-end: the demo page in Chromium against the real service (two regions), token server
# and Host-mode relay (apps/e2e; needs `pnpm build`, which scripts/setup.sh runs).
pnpm --filter @avatar-drive/e2e test

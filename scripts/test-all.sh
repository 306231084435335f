#!/usr/bin/env bash
# Every test the project has, in the order a failure is cheapest to find:
# lint, types, unit and integration tests (real service, Redis), browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."

pnpm lint
pnpm typecheck
pnpm test
# End-to-end: the demo page in Chromium against the real service (two regions), token server
# and Host-mode relay (apps/e2e; needs `pnpm build`, which scripts/setup.sh runs).
pnpm --filter @avatar-drive/e2e test

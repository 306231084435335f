#!/usr/bin/env bash
# Every test the project has, in the order a failure is cheapest to find:
# lint, types, unit and integration tests (real service, Redis), browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."

pnpm lint
pnpm typecheck
pnpm test

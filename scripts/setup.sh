#!/usr/bin/env bash
# Brings a fresh machine (Node 20, npm, apt, Go) to the point where `pnpm start` and
# `pnpm test:all` work: Debian packages, pnpm, workspace dependencies, a build.
# Safe to run again: each step skips what is already in place.
set -euo pipefail
cd "$(dirname "$0")/.."

PNPM_VERSION=10.34.9
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

log() { printf '\n\033[1m[setup] %s\033[0m\n' "$*"; }

missing=()
while read -r pkg; do
  case "$pkg" in ''|'#'*) continue ;; esac
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done < scripts/apt-packages.txt
if [ "${#missing[@]}" -gt 0 ]; then
  log "apt: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if [ "$(pnpm --version 2>/dev/null || true)" != "$PNPM_VERSION" ]; then
  log "npm: installing pnpm@$PNPM_VERSION"
  npm install -g "pnpm@$PNPM_VERSION" --no-fund --no-audit
fi

log "pnpm install"
CI=true pnpm install --frozen-lockfile

if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c "import spatialreal, spatius, livekit.agents, livekit.plugins.spatius" 2>/dev/null; then
  log "python: .venv with the SDKs the interop tests drive (apps/service/test/python/requirements.txt)"
  python3 -m venv .venv
  .venv/bin/pip install -q --disable-pip-version-check -r apps/service/test/python/requirements.txt
fi

log "livekit-server (Go build, minutes on first run)"
bash scripts/livekit.sh install

log "deploy checks: helm, kubeconform, hadolint, Kubernetes schemas (Go build once, cached)"
bash scripts/deploy-tools.sh install

log "build"
pnpm build

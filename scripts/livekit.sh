#!/usr/bin/env bash
# The real LiveKit server for RTC-mode development and tests, on loopback only.
#
#   bash scripts/livekit.sh install   build livekit-server (Go) into the cache when missing
#   bash scripts/livekit.sh start     install if needed, start in --dev mode, wait until it answers
#   bash scripts/livekit.sh stop      stop the server this checkout started
#   bash scripts/livekit.sh status    exit 0 and print the URL when running, exit 1 otherwise
#   bash scripts/livekit.sh url       print ws://127.0.0.1:<port> of the running server
#
# Environment:
#   LIVEKIT_PORT        signalling port (default 7880; when busy with another process, start
#                       takes the next free port of 7880..7898 unless LIVEKIT_PORT was set)
#   LIVEKIT_BIN_DIR     where the binary lives (default $HOME/.cache/avatar-drive/livekit/bin,
#                       shared by every checkout on the machine so it is built once)
#   LIVEKIT_STATE_DIR   pidfile, config and log (default <repo>/.cache/livekit, git-ignored)
#   LIVEKIT_VERSION     module version to build (default v1.13.5: v1.13.2..v1.13.5 carry no
#                       replace directives, so `go install` works)
#
# Keys are the dev pair devkey / secret. Everything binds to 127.0.0.1: the signalling port,
# and ICE, which gathers loopback host candidates only (UDP; the TCP fallback port is off
# because livekit-server would bind it on every interface).
set -euo pipefail
cd "$(dirname "$0")/.."
REPO="$(pwd)"

LIVEKIT_VERSION="${LIVEKIT_VERSION:-v1.13.5}"
BIN_DIR="${LIVEKIT_BIN_DIR:-$HOME/.cache/avatar-drive/livekit/bin}"
STATE_DIR="${LIVEKIT_STATE_DIR:-$REPO/.cache/livekit}"
BIN="$BIN_DIR/server"
VERSION_FILE="$BIN_DIR/server.version"
PID_FILE="$STATE_DIR/livekit.pid"
PORT_FILE="$STATE_DIR/livekit.port"
CONFIG_FILE="$STATE_DIR/livekit.yaml"
LOG_FILE="$STATE_DIR/livekit.log"
API_KEY=devkey
API_SECRET=secret

log() { printf '[livekit] %s\n' "$*" >&2; }
die() { printf '[livekit] error: %s\n' "$*" >&2; exit 1; }

# True when something accepts TCP connections on 127.0.0.1:$1.
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# True when a LiveKit server answers HTTP on 127.0.0.1:$1 (its root handler says "OK").
answers() {
  local reply
  reply="$(
    { exec 3<>"/dev/tcp/127.0.0.1/$1"; } 2>/dev/null || exit 1
    printf 'GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3
    timeout 2 cat <&3
  )" 2>/dev/null || return 1
  [[ "$reply" == *" 200 "* && "$reply" == *OK* ]]
}

running_pid() {
  [ -f "$PID_FILE" ] || return 1
  local pid
  pid="$(cat "$PID_FILE")"
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 1
  # Guard against a recycled pid: it must be our binary.
  [ "$(readlink -f "/proc/$pid/exe" 2>/dev/null)" = "$(readlink -f "$BIN")" ] || return 1
  echo "$pid"
}

cmd_install() {
  if [ -x "$BIN" ] && [ "$(cat "$VERSION_FILE" 2>/dev/null)" = "$LIVEKIT_VERSION" ]; then
    log "livekit-server $LIVEKIT_VERSION already installed at $BIN"
    return 0
  fi
  command -v go >/dev/null 2>&1 ||
    die "Go is not installed; livekit-server is built from source with 'go install'. Install Go >= 1.26 (https://go.dev/dl/) and run 'bash scripts/livekit.sh install' again."
  mkdir -p "$BIN_DIR"
  log "building github.com/livekit/livekit-server/cmd/server@$LIVEKIT_VERSION with $(go version | cut -d' ' -f3) (takes minutes)"
  local started=$SECONDS
  # The module may need a newer Go than the local one: let Go fetch that toolchain unless the
  # user pinned GOTOOLCHAIN to something other than 'local'.
  local toolchain="${GOTOOLCHAIN:-auto}"
  [ "$toolchain" = local ] && toolchain=auto
  GOBIN="$BIN_DIR" GOTOOLCHAIN="$toolchain" GOFLAGS="${GOFLAGS:-} -buildvcs=false" \
    go install "github.com/livekit/livekit-server/cmd/server@$LIVEKIT_VERSION" ||
    die "go install of livekit-server $LIVEKIT_VERSION failed (see the output above). It needs network access to the Go module proxy."
  echo "$LIVEKIT_VERSION" >"$VERSION_FILE"
  log "installed $BIN in $((SECONDS - started)) s"
}

write_config() {
  cat >"$CONFIG_FILE" <<EOF
# Written by scripts/livekit.sh: a development server reachable on loopback only.
port: $1
bind_addresses: [127.0.0.1]
keys:
  $API_KEY: $API_SECRET
rtc:
  # ICE host candidates on 127.0.0.1 only: no STUN, no external IP, no mDNS.
  use_external_ip: false
  enable_loopback_candidate: true
  interfaces:
    includes: [lo]
  ips:
    includes: [127.0.0.1/32]
  port_range_start: 50000
  port_range_end: 50999
  # The ICE/TCP port would listen on every interface: keep it off.
  tcp_port: 0
  stun_servers: []
room:
  auto_create: true
  empty_timeout: 60
  departure_timeout: 5
logging:
  level: info
EOF
}

cmd_start() {
  local pid
  if pid="$(running_pid)"; then
    log "already running (pid $pid) at $(cmd_url)"
    return 0
  fi
  cmd_install
  mkdir -p "$STATE_DIR"
  local port="${LIVEKIT_PORT:-7880}"
  if port_open "$port"; then
    [ -n "${LIVEKIT_PORT:-}" ] && die "port $port is in use by another process; choose another LIVEKIT_PORT."
    local candidate
    for candidate in $(seq 7882 2 7898); do
      if ! port_open "$candidate"; then port="$candidate"; break; fi
    done
    port_open "$port" && die "ports 7880..7898 are all in use; set LIVEKIT_PORT to a free port."
    log "port 7880 is busy; using $port"
  fi
  write_config "$port"
  : >"$LOG_FILE"
  # setsid: the server must outlive this shell and must not get its terminal's signals.
  setsid "$BIN" --dev --config "$CONFIG_FILE" --bind 127.0.0.1 --node-ip 127.0.0.1 \
    >>"$LOG_FILE" 2>&1 </dev/null &
  pid=$!
  echo "$pid" >"$PID_FILE"
  echo "$port" >"$PORT_FILE"
  local i
  for i in $(seq 1 150); do
    if answers "$port"; then
      log "running (pid $pid) at ws://127.0.0.1:$port, log $LOG_FILE"
      return 0
    fi
    kill -0 "$pid" 2>/dev/null || {
      tail -n 20 "$LOG_FILE" >&2 || true
      rm -f "$PID_FILE"
      die "livekit-server exited during start-up; full log: $LOG_FILE"
    }
    sleep 0.2
  done
  kill "$pid" 2>/dev/null || true
  rm -f "$PID_FILE"
  die "livekit-server did not answer on 127.0.0.1:$port within 30 s; log: $LOG_FILE"
}

cmd_stop() {
  local pid
  if ! pid="$(running_pid)"; then
    rm -f "$PID_FILE"
    log "not running"
    return 0
  fi
  kill -TERM "$pid"
  local i
  for i in $(seq 1 50); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "no exit after 10 s; sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$PID_FILE"
  log "stopped (pid $pid)"
}

cmd_url() {
  running_pid >/dev/null || die "not running; start it with 'bash scripts/livekit.sh start'."
  echo "ws://127.0.0.1:$(cat "$PORT_FILE")"
}

cmd_status() {
  local pid
  if pid="$(running_pid)" && answers "$(cat "$PORT_FILE")"; then
    echo "running pid=$pid url=ws://127.0.0.1:$(cat "$PORT_FILE") api_key=$API_KEY"
    return 0
  fi
  echo "stopped"
  return 1
}

case "${1:-}" in
  install) cmd_install ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  url) cmd_url ;;
  *)
    echo "usage: bash scripts/livekit.sh install|start|stop|status|url" >&2
    exit 2
    ;;
esac

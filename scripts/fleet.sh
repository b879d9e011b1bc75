#!/usr/bin/env bash
# A local fleet on loopback: Redis, three instances of an app, and nginx in front (deploy/nginx.conf).
#
#   scripts/fleet.sh up        start everything (builds first if build/ is missing); prints the URL
#   scripts/fleet.sh down      stop everything
#   scripts/fleet.sh status    each instance's readiness (and requestState key fingerprint)
#   scripts/fleet.sh stop N    stop instance N (1-3) gracefully (SIGTERM: drains, then exits)
#   scripts/fleet.sh kill N    kill instance N at once (SIGKILL)
#   scripts/fleet.sh start N   start instance N again
#   scripts/fleet.sh redis-stop | redis-start
#
# Env: FLEET_APP=sample|conformance (default sample), FLEET_DIR (default $TMPDIR/onemodelcontext-fleet),
# FLEET_LB_PORT (8080), FLEET_PORT_BASE (8081: instances on 8081-8083), FLEET_REDIS_PORT (6391),
# FLEET_NO_REDIS=1 (instances without Redis), FLEET_READINESS_PORT_BASE (readiness threads on it and the next
# two ports, READINESS_PORT), FLEET_INSTANCES=1|2|3 (default 3), FLEET_ENTRY (another
# entry file to run, e.g. a benchmark server), REQUEST_STATE_KEY (default: one random key per fleet).
# Needs redis-server and nginx (scripts/install-debian.sh installs them).
set -euo pipefail
cd "$(dirname "$0")/.."

APP=${FLEET_APP:-sample}
DIR=${FLEET_DIR:-${TMPDIR:-/tmp}/onemodelcontext-fleet}
LB_PORT=${FLEET_LB_PORT:-8080}
BASE=${FLEET_PORT_BASE:-8081}
REDIS_PORT=${FLEET_REDIS_PORT:-6391}
INSTANCES=${FLEET_INSTANCES:-3}

log() { echo "fleet: $*" >&2; }
die() { log "$*"; exit 1; }

case "$APP" in
  sample) ENTRY=build/sample-app/src/main.js ;;
  conformance) ENTRY=build/conformance/server.js ;;
  *) die "FLEET_APP must be sample or conformance, got $APP" ;;
esac
ENTRY=${FLEET_ENTRY:-$ENTRY}
[[ "$INSTANCES" =~ ^[1-3]$ ]] || die "FLEET_INSTANCES must be 1, 2 or 3, got $INSTANCES"

port_of() { echo $((BASE + $1 - 1)); }
# nginx.conf names three instances: with fewer, the missing ones are the first one again.
conf_port_of() { if [ "$1" -le "$INSTANCES" ]; then port_of "$1"; else port_of 1; fi; }
pid_alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# GET http://127.0.0.1:PORT/PATH; prints the body, fails on no answer or a status >= 400.
http_get() {
  node -e '
    const http = require("http");
    const req = http.get({ host: "127.0.0.1", port: +process.argv[1], path: process.argv[2], timeout: 2000 }, (res) => {
      let body = ""; res.on("data", (c) => (body += c));
      res.on("end", () => { process.stdout.write(body); process.exit(res.statusCode < 400 ? 0 : 1); });
    });
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", () => process.exit(2));' "$1" "$2"
}

wait_until() { # wait_until <what> <seconds> <command...>
  local what=$1 seconds=$2; shift 2
  for _ in $(seq 1 $((seconds * 10))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
  die "$what did not come up within ${seconds}s (logs in $DIR)"
}

redis_start() {
  [ -n "${FLEET_NO_REDIS:-}" ] && return 0
  command -v redis-server >/dev/null || die "redis-server not found: run scripts/install-debian.sh"
  pid_alive "$DIR/redis.pid" && return 0
  # deploy/redis.conf: the durability exactly-once needs (append-only file, fsync every second).
  redis-server deploy/redis.conf --port "$REDIS_PORT" --bind 127.0.0.1 --daemonize yes \
    --pidfile "$DIR/redis.pid" --logfile "$DIR/redis.log" --dir "$DIR"
  wait_until "redis on :$REDIS_PORT" 10 redis-cli -p "$REDIS_PORT" ping
}

redis_stop() {
  pid_alive "$DIR/redis.pid" || return 0
  kill "$(cat "$DIR/redis.pid")"
  for _ in $(seq 1 50); do pid_alive "$DIR/redis.pid" || break; sleep 0.1; done
  rm -f "$DIR/redis.pid"
}

instance_start() {
  local n=$1 port; port=$(port_of "$n")
  pid_alive "$DIR/i$n.pid" && return 0
  local redis_url=""
  [ -z "${FLEET_NO_REDIS:-}" ] && redis_url="redis://127.0.0.1:$REDIS_PORT"
  PORT=$port \
    REQUEST_STATE_KEY=$(cat "$DIR/key") \
    REDIS_URL=$redis_url \
    ALLOWED_HOSTS="127.0.0.1:$LB_PORT,localhost:$LB_PORT" \
    SESSION_ID_PREFIX="i$n" \
    READINESS_PATH=/ready \
    READINESS_PORT=${FLEET_READINESS_PORT_BASE:+$((FLEET_READINESS_PORT_BASE + n - 1))} \
    nohup node "$ENTRY" >"$DIR/i$n.log" 2>&1 &
  echo $! >"$DIR/i$n.pid"
  wait_until "instance i$n on :$port" 20 http_get "$port" /ready
}

instance_signal() {
  local n=$1 signal=$2
  pid_alive "$DIR/i$n.pid" || return 0
  local pid; pid=$(cat "$DIR/i$n.pid")
  kill -"$signal" "$pid" 2>/dev/null || true
  for _ in $(seq 1 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  rm -f "$DIR/i$n.pid"
}

nginx_start() {
  command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || die "nginx not found: run scripts/install-debian.sh"
  local bin; bin=$(command -v nginx || echo /usr/sbin/nginx)
  pid_alive "$DIR/nginx.pid" && return 0
  mkdir -p "$DIR"/{client_body,proxy,fastcgi,uwsgi,scgi}
  sed -e "s|@RUN_DIR@|$DIR|g" -e "s|@LB_PORT@|$LB_PORT|g" \
    -e "s|@PORT_1@|$(conf_port_of 1)|g" -e "s|@PORT_2@|$(conf_port_of 2)|g" -e "s|@PORT_3@|$(conf_port_of 3)|g" \
    deploy/nginx.conf >"$DIR/nginx.conf"
  # Workers run as root only when we are root (nginx would switch to nobody, who cannot use $DIR).
  [ "$(id -u)" = 0 ] && sed -i '1i user root;' "$DIR/nginx.conf"
  "$bin" -t -q -c "$DIR/nginx.conf" -p "$DIR" 2>>"$DIR/nginx-error.log" || die "nginx refused the configuration (see $DIR/nginx-error.log)"
  "$bin" -c "$DIR/nginx.conf" -p "$DIR"
  wait_until "nginx on :$LB_PORT" 10 test -f "$DIR/nginx.pid"
}

nginx_stop() {
  pid_alive "$DIR/nginx.pid" || return 0
  local pid; pid=$(cat "$DIR/nginx.pid")
  kill -QUIT "$pid"
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  rm -f "$DIR/nginx.pid"
}

up() {
  mkdir -p "$DIR"
  [ -f "$ENTRY" ] || { log "building ($ENTRY is missing)"; npm run --silent build >/dev/null && npm run --silent build:apps >/dev/null; }
  [ -f "$DIR/key" ] || printf '%s' "${REQUEST_STATE_KEY:-$(node -e 'process.stdout.write(require("crypto").randomBytes(32).toString("base64url"))')}" >"$DIR/key"
  redis_start
  for n in $(seq 1 $INSTANCES); do instance_start "$n"; done
  nginx_start
  log "up: http://127.0.0.1:$LB_PORT/mcp -> instances on :$(port_of 1)-:$(port_of $INSTANCES)$([ -z "${FLEET_NO_REDIS:-}" ] && echo ", Redis on :$REDIS_PORT") (logs in $DIR)"
  echo "http://127.0.0.1:$LB_PORT/mcp"
}

down() {
  nginx_stop
  for n in $(seq 1 $INSTANCES); do instance_signal "$n" TERM; done
  redis_stop
  log "down"
}

status() {
  for n in $(seq 1 $INSTANCES); do
    local port; port=$(port_of "$n")
    printf 'i%s :%s %s\n' "$n" "$port" "$(http_get "$port" /ready || echo 'not ready')"
  done
}

check_n() { [[ "${1:-}" =~ ^[1-3]$ ]] && [ "$1" -le "$INSTANCES" ] || die "instance number 1-$INSTANCES expected"; }

cmd=${1:-}
case "$cmd" in
  up) up ;;
  down) down ;;
  status) status ;;
  stop) check_n "${2:-}"; instance_signal "$2" TERM ;;
  kill) check_n "${2:-}"; instance_signal "$2" KILL ;;
  start) check_n "${2:-}"; instance_start "$2" ;;
  redis-stop) redis_stop ;;
  redis-start) redis_start ;;
  *) die "usage: scripts/fleet.sh up|down|status|stop N|kill N|start N|redis-stop|redis-start" ;;
esac

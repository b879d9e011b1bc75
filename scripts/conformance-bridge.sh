#!/usr/bin/env bash
# The official conformance suite against `onemodelcontext bridge` in front of our conformance
# server spoken to as a legacy-only (2025-11-25) upstream: every fixture reached through the bridge,
# its asks carried across revisions. Reported, not a CI gate: scenarios the upstream's features or
# the bridge cannot serve are listed with their result. Needs `npm run build` (dist/) first.
# Results: results-bridge/<set>/…/checks.json, summaries on stdout.
set -euo pipefail
cd "$(dirname "$0")/.."

RESULTS_DIR=${CONFORMANCE_RESULTS_DIR:-results-bridge}
NODE22=tools/conformance/node_modules/.bin/node
RUNNER=tools/conformance/node_modules/@modelcontextprotocol/conformance/dist/index.js
log() { echo "conformance-bridge: $*" >&2; }

bash scripts/conformance-install.sh
node_modules/.bin/tsc -p conformance/tsconfig.json
[ -f dist/cjs/bridge/serve-bridge.js ] || { log "dist/ is missing: run npm run build"; exit 2; }

free_port() { node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
up_port=$(free_port)
port=$(free_port)
rm -rf "$RESULTS_DIR"
mkdir -p "$RESULTS_DIR"
key() { node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))"; }

PORT=$up_port REQUEST_STATE_KEY=$(key) node build/conformance/server.js </dev/null >"$RESULTS_DIR/upstream.log" 2>&1 &
up_pid=$!
bridge_pid=
stop() {
  for pid in $bridge_pid $up_pid; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
}
trap stop EXIT
until grep -q listening "$RESULTS_DIR/upstream.log"; do sleep 0.2; kill -0 $up_pid || exit 2; done

REQUEST_STATE_KEY=$(key) node bin/onemodelcontext.js bridge --url "http://localhost:$up_port/mcp" \
  --upstream-version 2025-11-25 --port "$port" </dev/null >"$RESULTS_DIR/bridge.log" 2>&1 &
bridge_pid=$!
until grep -q "bridge listening" "$RESULTS_DIR/bridge.log"; do sleep 0.2; kill -0 $bridge_pid || { cat "$RESULTS_DIR/bridge.log"; exit 2; }; done
url="http://localhost:$port/mcp"
log "bridge on $url in front of the conformance server (2025-11-25 upstream) on $up_port"

for set in 2026-07-28 2025-11-25; do
  if timeout 300 "$NODE22" "$RUNNER" server --url "$url" --requirements "$set" -o "$RESULTS_DIR/$set" \
    </dev/null >"$RESULTS_DIR/$set.log" 2>&1; then rc=0; else rc=$?; fi
  echo "== $set (exit $rc)"
  sed -n '/=== SUMMARY ===/,$p' "$RESULTS_DIR/$set.log"
done

#!/usr/bin/env bash
# Runs the official MCP conformance suite (pinned in tools/conformance) against our conformance
# server, build/conformance/server.js, for both scored requirement sets:
#   2025-11-25 (stateful, initialize + sessions) and 2026-07-28 (stateless, MRTR).
# Then the ten `tasks-*` scenarios of the tasks extension (SEP-2663), each on its own: checked like
# a scored set (every one must pass; there is no expected-failures list for them), and the three
# `sep-2640-skills-*` scenarios of the skills extension on both revisions, checked the same way. Then, not
# scored: every 2026-07-28 scenario (--suite all) and the pending legacy scenarios.
# Exits non-zero when a scored or tasks run fails. Results: results/<run>/server-<scenario>-<time>/checks.json
# Usage: scripts/conformance.sh [--no-build]   (PORT=3000 by default; another free port if taken)
set -euo pipefail
cd "$(dirname "$0")/.."

RESULTS_DIR=${CONFORMANCE_RESULTS_DIR:-results}
RUN_TIMEOUT_S=${CONFORMANCE_RUN_TIMEOUT_S:-300}
SCORED_SETS=(2025-11-25 2026-07-28)
LEGACY_PENDING=(server-session-lifecycle server-sse-polling json-schema-2020-12)
TASKS_SCENARIOS=(tasks-lifecycle tasks-capability-negotiation tasks-wire-fields tasks-request-state-removal
  tasks-mrtr-input tasks-request-headers tasks-dispatch-and-envelope tasks-status-notifications
  tasks-required-task-error tasks-mrtr-composition)
# The skills extension (SEP-2640): checked on 2026-07-28 and, forced, on 2025-11-25 (we serve it on both).
SKILLS_SCENARIOS=(sep-2640-skills-enumeration sep-2640-skills-manifest sep-2640-skills-directory)
BASELINE=conformance/baseline.yml

NODE22=tools/conformance/node_modules/.bin/node
RUNNER=tools/conformance/node_modules/@modelcontextprotocol/conformance/dist/index.js

log() { echo "conformance: $*" >&2; }

build=1
[ "${1:-}" = "--no-build" ] && build=0

bash scripts/conformance-install.sh
if [ "$build" = 1 ]; then
  # Only src + conformance (same output as tsconfig.apps.json), so another app's build cannot block the gate.
  log "building src + conformance into build/"
  node_modules/.bin/tsc -p conformance/tsconfig.json
fi
[ -f build/conformance/server.js ] || { log "build/conformance/server.js is missing (run without --no-build)"; exit 2; }

# A port that is free now: $PORT if set, else 3000, else whatever the OS hands out.
port_is_free() { node -e "const s=require('net').createServer();s.once('error',()=>process.exit(1));s.listen($1,'127.0.0.1',()=>s.close(()=>process.exit(0)))"; }
pick_port() {
  if [ -n "${PORT:-}" ]; then echo "$PORT"; return; fi
  if port_is_free 3000; then echo 3000; return; fi
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}
port=$(pick_port)
url="http://localhost:$port/mcp"

rm -rf "$RESULTS_DIR"
mkdir -p "$RESULTS_DIR"
server_log="$RESULTS_DIR/server.log"

# A fresh key per run: requestState must be sealed with a configured key, never a guessable one.
state_key=$(node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))")
PORT=$port REQUEST_STATE_KEY=$state_key node build/conformance/server.js </dev/null >"$server_log" 2>&1 &
server_pid=$!
stop_server() {
  if kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
}
trap stop_server EXIT

# Ready when POST /mcp answers anything over HTTP (a 2026 server/discover probe).
wait_ready() {
  node -e "
    const url = process.argv[1];
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' };
    const deadline = Date.now() + 20000;
    (async function poll() {
      try { const r = await fetch(url, { method: 'POST', headers, body }); await r.text(); process.exit(0); }
      catch { if (Date.now() > deadline) process.exit(1); setTimeout(poll, 100); }
    })();" "$url"
}
if ! wait_ready; then
  log "the server did not answer on $url; its log:"
  cat "$server_log" >&2
  exit 2
fi
log "server up on $url (pid $server_pid)"

runner() { timeout "$RUN_TIMEOUT_S" "$NODE22" "$RUNNER" server --url "$url" "$@" </dev/null; }

failed_scored=()
for set in "${SCORED_SETS[@]}"; do
  args=(--requirements "$set" -o "$RESULTS_DIR/$set")
  # Only things that cannot pass yet belong in the baseline; an entry that passes fails the run.
  [ -f "$BASELINE" ] && args+=(--expected-failures "$BASELINE")
  log "scored: --requirements $set"
  if runner "${args[@]}" >"$RESULTS_DIR/$set.log" 2>&1; then rc=0; else rc=$?; fi
  sed -n '/=== SUMMARY ===/,$p' "$RESULTS_DIR/$set.log"
  echo "$rc" >"$RESULTS_DIR/$set.exit"
  [ "$rc" = 0 ] || failed_scored+=("$set (exit $rc)")
done

# The tasks extension: extension scenarios are off the spec timeline, so each runs by name. A run
# passes when the runner exits 0, reports "0 failed" and did not skip the scenario as not applicable.
for scenario in "${TASKS_SCENARIOS[@]}"; do
  log="$RESULTS_DIR/tasks-$scenario.log"
  if runner --scenario "$scenario" -o "$RESULTS_DIR/tasks" >"$log" 2>&1; then rc=0; else rc=$?; fi
  echo "$rc" >"$RESULTS_DIR/tasks-$scenario.exit"
  summary=$(grep -E '^Passed:' "$log" || echo "no summary")
  echo "  [tasks] $scenario: $summary"
  if [ "$rc" != 0 ] || ! grep -qE '^Passed: .*, 0 failed' "$log" || grep -q 'is not applicable' "$log"; then
    failed_scored+=("tasks $scenario (exit $rc)")
  fi
done

# The skills extension: the same rule, plus no check skipped for want of the declaration.
for scenario in "${SKILLS_SCENARIOS[@]}"; do
  for revision in 2026-07-28 2025-11-25; do
    log="$RESULTS_DIR/skills-$scenario-$revision.log"
    if runner --scenario "$scenario" --spec-version "$revision" --force -o "$RESULTS_DIR/skills-$revision" >"$log" 2>&1; then rc=0; else rc=$?; fi
    echo "$rc" >"$RESULTS_DIR/skills-$scenario-$revision.exit"
    echo "  [skills] $scenario @ $revision: $(grep -E '^Passed:' "$log" || echo "no summary")"
    if [ "$rc" != 0 ] || ! grep -qE '^Passed: .*, 0 failed' "$log" || grep -qE 'is not applicable|did not declare' "$log"; then
      failed_scored+=("skills $scenario @ $revision (exit $rc)")
    fi
  done
done

# Not scored: reported, never fatal.
log "not scored: --suite all --spec-version 2026-07-28"
if runner --suite all --spec-version 2026-07-28 -o "$RESULTS_DIR/all-2026-07-28" >"$RESULTS_DIR/all-2026-07-28.log" 2>&1; then rc=0; else rc=$?; fi
echo "$rc" >"$RESULTS_DIR/all-2026-07-28.exit"
grep -E '^(✗|Total)' "$RESULTS_DIR/all-2026-07-28.log" | sed 's/^/  [all 2026-07-28] /' || true
for scenario in "${LEGACY_PENDING[@]}"; do
  if runner --scenario "$scenario" --spec-version 2025-11-25 -o "$RESULTS_DIR/legacy-pending" >"$RESULTS_DIR/legacy-$scenario.log" 2>&1; then rc=0; else rc=$?; fi
  echo "$rc" >"$RESULTS_DIR/legacy-$scenario.exit"
  echo "  [legacy pending] $scenario: $(grep -E '^Passed:' "$RESULTS_DIR/legacy-$scenario.log" || echo "exit $rc")"
done

node -e "
  const fs = require('fs');
  const meta = {
    date: new Date().toISOString(),
    runner: require('./tools/conformance/node_modules/@modelcontextprotocol/conformance/package.json').version,
    node: process.argv[1],
    commit: process.argv[2],
    url: process.argv[3],
  };
  fs.writeFileSync(process.argv[4], JSON.stringify(meta, null, 2) + '\n');
" "$("$NODE22" --version)" "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" "$url" "$RESULTS_DIR/meta.json"

if [ ${#failed_scored[@]} -gt 0 ]; then
  log "FAILED scored runs: ${failed_scored[*]} (details in $RESULTS_DIR/*.log; server log $server_log)"
  exit 1
fi
log "all scored requirement sets pass: ${SCORED_SETS[*]}, the ${#TASKS_SCENARIOS[@]} tasks scenarios and the ${#SKILLS_SCENARIOS[@]} skills scenarios on both revisions"

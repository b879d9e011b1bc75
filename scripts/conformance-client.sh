#!/usr/bin/env bash
# Runs the official MCP conformance *client* scenarios (runner pinned in tools/conformance, Node 22)
# against our conformance client, build/conformance/client/main.js, at each revision a scenario
# applies to. Results: results/client/<revision>/…/checks.json. Prints a summary; exits non-zero
# when any scenario fails. Usage: scripts/conformance-client.sh [--no-build]
set -euo pipefail
cd "$(dirname "$0")/.."

RESULTS_DIR=${CONFORMANCE_RESULTS_DIR:-results}/client
NODE22=tools/conformance/node_modules/.bin/node
RUNNER=tools/conformance/node_modules/@modelcontextprotocol/conformance/dist/index.js
ENTRY=build/conformance/client/main.js

# scenario:revision pairs (the auth/* and extension scenarios are out of scope for this client).
RUNS=(
  initialize:2025-11-25
  tools_call:2025-11-25
  tools_call:2026-07-28
  elicitation-sep1034-client-defaults:2025-11-25
  sse-retry:2025-11-25
  request-metadata:2026-07-28
  sep-2322-client-request-state:2026-07-28
  http-standard-headers:2026-07-28
  http-custom-headers:2026-07-28
  http-invalid-tool-headers:2026-07-28
  json-schema-ref-no-deref:2026-07-28
  json-schema-2020-12-preservation:2025-11-25
  json-schema-2020-12-preservation:2026-07-28
)

log() { echo "conformance-client: $*" >&2; }

bash scripts/conformance-install.sh
if [ "${1:-}" != "--no-build" ]; then
  log "building src + conformance into build/"
  node_modules/.bin/tsc -p conformance/tsconfig.json
fi
[ -f "$ENTRY" ] || { log "$ENTRY is missing (run without --no-build)"; exit 2; }

failed=0
summary=()
for run in "${RUNS[@]}"; do
  scenario=${run%%:*}
  revision=${run##*:}
  out="$RESULTS_DIR/$revision"
  mkdir -p "$out"
  log "$scenario @ $revision"
  set +e
  text=$("$NODE22" "$RUNNER" client --command "node $ENTRY" --scenario "$scenario" --spec-version "$revision" -o "$out" 2>&1)
  code=$?
  set -e
  counts=$(printf '%s\n' "$text" | grep -Eo 'Passed: [0-9]+/[0-9]+.*' | tail -1)
  if [ "$code" -eq 0 ]; then
    summary+=("✓ $scenario @ $revision  ${counts}")
  else
    failed=1
    summary+=("✗ $scenario @ $revision  ${counts:-exit $code}")
    printf '%s\n' "$text" | grep -E 'FAILURE|Error|error' | head -20 >&2 || true
  fi
done

echo "=== conformance client summary ==="
printf '%s\n' "${summary[@]}"
exit $failed

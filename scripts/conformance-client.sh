#!/usr/bin/env bash
# Runs the official MCP conformance *client* scenarios (runner pinned in tools/conformance, Node 22)
# against our conformance client, build/conformance/client/main.js, at each revision a scenario
# applies to. Results: results/client/<revision>/…/checks.json. Prints a summary; exits non-zero
# when any scenario fails. Usage: [CONFORMANCE_ONLY=<substring>] scripts/conformance-client.sh [--no-build]
set -euo pipefail
cd "$(dirname "$0")/.."

RESULTS_DIR=${CONFORMANCE_RESULTS_DIR:-results}/client
NODE22=tools/conformance/node_modules/.bin/node
RUNNER=tools/conformance/node_modules/@modelcontextprotocol/conformance/dist/index.js
ENTRY=build/conformance/client/main.js

# scenario:revision pairs; `extension` runs a scenario outside the dated sets (no --spec-version).
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
  auth/metadata-default:2025-11-25
  auth/metadata-default:2026-07-28
  auth/metadata-var1:2025-11-25
  auth/metadata-var1:2026-07-28
  auth/metadata-var2:2025-11-25
  auth/metadata-var2:2026-07-28
  auth/metadata-var3:2025-11-25
  auth/metadata-var3:2026-07-28
  auth/basic-cimd:2025-11-25
  auth/basic-cimd:2026-07-28
  auth/scope-from-www-authenticate:2025-11-25
  auth/scope-from-www-authenticate:2026-07-28
  auth/scope-from-scopes-supported:2025-11-25
  auth/scope-from-scopes-supported:2026-07-28
  auth/scope-omitted-when-undefined:2025-11-25
  auth/scope-omitted-when-undefined:2026-07-28
  auth/scope-step-up:2025-11-25
  auth/scope-step-up:2026-07-28
  auth/scope-retry-limit:2025-11-25
  auth/scope-retry-limit:2026-07-28
  auth/token-endpoint-auth-basic:2025-06-18
  auth/token-endpoint-auth-basic:2025-11-25
  auth/token-endpoint-auth-basic:2026-07-28
  auth/token-endpoint-auth-post:2025-06-18
  auth/token-endpoint-auth-post:2025-11-25
  auth/token-endpoint-auth-post:2026-07-28
  auth/token-endpoint-auth-none:2025-06-18
  auth/token-endpoint-auth-none:2025-11-25
  auth/token-endpoint-auth-none:2026-07-28
  auth/pre-registration:2025-11-25
  auth/pre-registration:2026-07-28
  auth/2025-03-26-oauth-metadata-backcompat:2025-03-26
  auth/2025-03-26-oauth-endpoint-fallback:2025-03-26
  auth/resource-mismatch:2026-07-28
  auth/offline-access-scope:2026-07-28
  auth/offline-access-not-supported:2026-07-28
  auth/authorization-server-migration:2026-07-28
  auth/iss-supported:2026-07-28
  auth/iss-not-advertised:2026-07-28
  auth/iss-supported-missing:2026-07-28
  auth/iss-wrong-issuer:2026-07-28
  auth/iss-unexpected:2026-07-28
  auth/iss-normalized:2026-07-28
  auth/metadata-issuer-mismatch:2026-07-28
  auth/client-credentials-basic:extension
  auth/client-credentials-jwt:extension
  auth/dpop:extension
  auth/dpop-nonce:extension
  auth/wif-jwt-bearer:extension
  auth/enterprise-managed-authorization:extension
  sep-2640-client-no-prefetch:extension
  sep-2640-client-verify-digest:extension
  sep-2640-client-verify-size:extension
  sep-2640-client-verify-frontmatter:extension
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
  [[ -n "${CONFORMANCE_ONLY:-}" && "$run" != *"$CONFORMANCE_ONLY"* ]] && continue
  out="$RESULTS_DIR/$revision"
  mkdir -p "$out"
  log "$scenario @ $revision"
  version=(--spec-version "$revision")
  [ "$revision" = extension ] && version=()
  set +e
  text=$("$NODE22" "$RUNNER" client --command "node $ENTRY" --scenario "$scenario" "${version[@]}" -o "$out" 2>&1)
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

#!/usr/bin/env bash
# Installs the pinned conformance runner and its Node 22 (tools/conformance) from the lockfile.
# Idempotent: does nothing when the installed versions already match the pins.
set -euo pipefail
cd "$(dirname "$0")/.."

dir=tools/conformance
node22="$dir/node_modules/.bin/node"
runner_pkg="$dir/node_modules/@modelcontextprotocol/conformance/package.json"
want_runner=$(node -p "require('./$dir/package.json').dependencies['@modelcontextprotocol/conformance']")
want_node=$(node -p "require('./$dir/package.json').dependencies.node")

installed_matches() {
  [ -x "$node22" ] && [ -f "$runner_pkg" ] || return 1
  [ "$("$node22" --version 2>/dev/null)" = "v$want_node" ] || return 1
  [ "$(node -p "require('./$runner_pkg').version")" = "$want_runner" ]
}

if installed_matches; then
  exit 0
fi
echo "conformance-install: installing @modelcontextprotocol/conformance@$want_runner and node@$want_node" >&2
npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error </dev/null >&2
installed_matches || { echo "conformance-install: $node22 is not v$want_node after npm ci" >&2; exit 1; }

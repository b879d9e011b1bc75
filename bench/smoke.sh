#!/usr/bin/env bash
# CI smoke for the benchmark harness: every scenario once, short (~1-2 minutes), no thresholds.
# It proves the servers start, every response checks out, and prints the ratios. Output: bench/out/.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f dist/cjs/index.js ] || npm run build
exec node bench/bench.mjs --smoke "$@"

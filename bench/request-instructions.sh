#!/bin/bash
# Instructions the server process executes per request (or per MRTR flow) over real sockets: a
# noise-free A/B on a shared machine, where timing A/Bs cannot resolve a few per cent. The server runs
# under callgrind with `node --predictable` (no concurrent GC or compilation); a keep-alive client
# (lib/instr-client.mjs, every response checked) warms it, counting is switched on for N units, then
# dumped. V8's optimising compiler still runs in the window (~185–210 M instructions whatever the
# server), so its functions are subtracted ("excluding compile"). User space only: no kernel time.
#
#   bash bench/request-instructions.sh <dist/cjs dir> echo|fixed|mrtr <n> [KEY=VALUE env for the server …]
#   SERVER=bench/servers/raw.mjs bash bench/request-instructions.sh dist/cjs fixed 4000
#   SERVER=bench/servers/floor-mrtr.mjs bash bench/request-instructions.sh dist/cjs mrtr 2000 MODE=hmac
# WARM (default 6000 units; 3000 is enough for mrtr) sets the warm-up; WARM2 (default 0) adds a second warm-up run of
# that many units on a new connection: the first new connections deoptimise ~25 of node's HTTP functions, which then
# run in baseline code for hundreds of requests (~45 k per mrtr flow); WARM=2500 WARM2=500 counts past that.
# CONC (default 8) the client's concurrency:
# CONC=1 (one unit at a time) takes how requests batch into reads and wake-ups, which depends on the
# machine's load, out of the count (A/Bs on a busy machine). Needs valgrind.
# NODE_FLAGS adds flags to the server's node (e.g. --perf-basic-prof); KEEP=1 prints the callgrind file's path
# and the server's pid. With both, `node bench/lib/callgrind-js-names.mjs <file> /tmp/perf-<pid>.map <out>` names the JIT code
# by JS function, so callgrind_annotate --inclusive=yes --tree=calling shows where a flow's instructions go.
# Valgrind offers no SHA-NI, so OpenSSL hashes with its AVX2 code here (~1.7 k instructions per SHA-256
# block) where the native process uses SHA-NI: compare builds within one requestState mode, not HMAC mode
# against ENCRYPT=1 (callgrind reads AES-GCM 1.39× the HMAC seal; natively it is 4.5–7×; profile-notes.md).
set -euo pipefail
cd "$(dirname "$0")/.."
DIST=$(realpath "$1"); KIND=$2; N=$3; shift 3
case $KIND in mrtr) TOOLS=echo,confirm_echo ;; fixed) TOOLS=fixed ;; *) TOOLS=echo ;; esac
PORT=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
OUT=$(mktemp -d)/cg
env OMC_DIST="$DIST" TOOLS=$TOOLS PORT=$PORT "$@" valgrind --tool=callgrind --instr-atstart=no \
  --callgrind-out-file="$OUT.%p" node --predictable ${NODE_FLAGS:-} "${SERVER:-bench/servers/ours.cjs}" >/dev/null 2>"$OUT.log" &
VG=$!
trap 'kill $VG 2>/dev/null || true' EXIT
for _ in $(seq 1 600); do (echo >/dev/tcp/127.0.0.1/$PORT) 2>/dev/null && break; sleep 1; done
node bench/lib/instr-client.mjs "$PORT" "$KIND" "${WARM:-6000}" "${CONC:-8}"
if [ "${WARM2:-0}" -gt 0 ]; then node bench/lib/instr-client.mjs "$PORT" "$KIND" "$WARM2" "${CONC:-8}"; fi
callgrind_control -i on $VG >/dev/null
node bench/lib/instr-client.mjs "$PORT" "$KIND" "$N" "${CONC:-8}"
callgrind_control -d $VG >/dev/null
callgrind_control -i off $VG >/dev/null
sleep 1
FILE=$(ls "$OUT".*.1)
TOTAL=$(grep -h '^totals:' "$FILE" | awk '{print $2}')
COMPILE=$(callgrind_annotate --threshold=100 "$FILE" 2>/dev/null \
  | grep -E 'compiler::|maglev::|turboshaft|baseline::|BytecodeGenerator|Compiler|internal::Parser|ParserBase|internal::Scanner|PreParser' \
  | grep -v -E 'JsonParser|JsonStringifier' | awk '{gsub(",","",$1); s+=$1} END {print s+0}')
if [ -n "${KEEP:-}" ]; then PID=${FILE%.1}; echo "callgrind file: $FILE (server pid ${PID##*.})"; fi
echo "$KIND n=$N ($DIST${SERVER:+, $SERVER}): $((TOTAL / N)) instructions per unit, $(((TOTAL - COMPILE) / N)) excluding compile"

// Names the JIT code in a callgrind file by JS function, from node's perf map (--perf-basic-prof), so that
// callgrind_annotate attributes a request's instructions to the functions that spent them, inclusive costs and
// call trees included (bench/request-instructions.sh with NODE_FLAGS=--perf-basic-prof KEEP=1).
//   node bench/lib/callgrind-js-names.mjs <callgrind file> /tmp/perf-<pid>.map <out file>
//   callgrind_annotate --inclusive=yes --tree=calling <out file>
// Names keep V8's tier mark: `*` optimized, `^` baseline, `~` interpreted. Code V8 moved or freed after it was
// logged keeps its address (rare with --predictable).
import fs from 'node:fs';

const [input, map, output] = process.argv.slice(2);
if (!output) {
  console.error('usage: node bench/lib/callgrind-js-names.mjs <callgrind file> <perf map> <out file>');
  process.exit(2);
}
const ranges = fs
  .readFileSync(map, 'utf8')
  .trim()
  .split('\n')
  .map((line) => /^([0-9a-f]+) ([0-9a-f]+) (.*)$/.exec(line))
  .filter(Boolean)
  .map((m) => [parseInt(m[1], 16), parseInt(m[2], 16), m[3]])
  .sort((a, b) => a[0] - b[0]);

/** The perf-map entry holding `address`, by binary search over the starts. */
function nameOf(address) {
  let lo = 0;
  let hi = ranges.length - 1;
  let best;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (ranges[mid][0] <= address) {
      best = ranges[mid];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best && address < best[0] + best[1] ? best[2] : undefined;
}

const named = fs.readFileSync(input, 'utf8').replace(/^(c?fn=\(\d+\)) 0x([0-9a-f]+)$/gm, (line, head, hex) => {
  const name = nameOf(parseInt(hex, 16));
  // callgrind_annotate splits a name at spaces: file paths and positions stay one token.
  return name ? `${head} ${name.replace(/ /g, '_')}` : line;
});
fs.writeFileSync(output, named);

// Start-up in instructions, not milliseconds (issue 38): valgrind's callgrind counts the instructions a
// server executes from exec to its answer to `initialize` over stdio (stdin then closes), under
// `node --jitless --predictable` so the count depends neither on when the JIT kicks in nor on how V8's
// helper threads are scheduled (without --predictable, two runs of one build differed by up to 4 %).
// Deterministic to a fraction of a percent however busy the machine is; slow (~30 s to a few minutes
// per run). Prints the count per server and size, and the instructions per added tool between the two
// sizes.
//
//   npm run build && node bench/startup-instructions.mjs [--sizes 50,500] [--base <dist/cjs copy>]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const { values: a } = parseArgs({ options: { sizes: { type: 'string', default: '50,500' }, base: { type: 'string' } } });
const file = (name) => fileURLToPath(new URL(`./servers/${name}`, import.meta.url));
const servers = [
  { label: 'ours', file: file('stdio-scale-ours.cjs'), env: {} },
  ...(a.base ? [{ label: 'ours-base', file: file('stdio-scale-ours.cjs'), env: { OMC_DIST: resolve(a.base) } }] : []),
  { label: 'sdk-v2', file: file('stdio-scale-sdk-v2.mjs'), env: {} },
];
const sizes = a.sizes.split(',').map(Number);
const init = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } })}\n`;
const dir = mkdtempSync(join(tmpdir(), 'omc-cg-'));
const rows = [];
try {
  for (const s of servers) {
    const counts = sizes.map((n) => {
      const out = join(dir, `${s.label}-${n}.out`);
      const env = { ...process.env, ...s.env, NTOOLS: String(n) };
      // One start outside the count makes our bytecode cache (dist/cjs/code-cache.js) for these flags;
      // the counted start reads it and writes none: a start-up as every start after the first.
      execFileSync(process.execPath, ['--jitless', '--predictable', s.file], { input: init, env, stdio: ['pipe', 'ignore', 'ignore'] });
      const stdout = execFileSync('valgrind', ['--tool=callgrind', `--callgrind-out-file=${out}`, process.execPath, '--jitless', '--predictable', s.file], {
        input: init, env: { ...env, ONEMODELCONTEXT_CODE_CACHE: 'read' }, stdio: ['pipe', 'pipe', 'ignore'], maxBuffer: 1 << 26,
      }).toString();
      if (!stdout.includes('"protocolVersion"')) throw new Error(`${s.label} N=${n}: no initialize answer`);
      const summary = readFileSync(out, 'utf8').match(/^(?:summary|totals): (\d+)/m);
      return Number(summary[1]);
    });
    const row = { server: s.label };
    sizes.forEach((n, i) => { row[`N=${n} (G instr)`] = (counts[i] / 1e9).toFixed(3); });
    row['per added tool (M instr)'] = ((counts.at(-1) - counts[0]) / (sizes.at(-1) - sizes[0]) / 1e6).toFixed(2);
    rows.push(row);
    console.error(JSON.stringify(row));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.table(rows);

// Runs the existing bench/state-codec.mjs (seal/open µs per op) pinned to CPU 0, keeps its output
// verbatim and parses its table rows for the report.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { pinned } from './procs.mjs';

export function runStateCodec() {
  const script = fileURLToPath(new URL('../state-codec.mjs', import.meta.url));
  const [cmd, args] = pinned(0, [process.execPath, script]);
  const text = execFileSync(cmd, args, { encoding: 'utf8', timeout: 120_000 });
  const rows = [];
  for (const line of text.split('\n')) {
    const cells = [...line.matchAll(/'([^']*)'/g)].map((m) => m[1]);
    if (cells.length === 5) rows.push({ mode: cells[0], payload: cells[1], token: cells[2], sealUs: Number(cells[3]), openUs: Number(cells[4]) });
  }
  return { text, rows };
}

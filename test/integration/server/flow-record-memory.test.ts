/**
 * docs/multi-round-trip.md states what the default flow store costs: "about 250 bytes of heap per
 * record, its flow id included, plus the result". A child built from dist (`node --expose-gc`) runs
 * 50 000 two-round flows through a MemoryFlowStore the way the engine does (claim and release at round
 * 1, claim and complete at round 2, with a fresh flow id each), and reports the live heap they left
 * behind after full collections. The result is a constant, so what is measured is the record: its id
 * string, times, holder, completion, map entry and completion-queue slot (256 bytes on Node 20 at
 * 50 000 records). Bytes, not time: it holds on a busy machine. Needs `npm run build`.
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

const DIST = resolve(__dirname, '../../../dist/cjs/index.js');
const FLOWS = 50_000;
/** The figure the docs give, with room for V8 versions and hash-table growth steps. */
const STATED = 250;
const BOUND = 300;

const CHILD = `
const { MemoryFlowStore } = require(${JSON.stringify(DIST)});
const { randomBytes } = require('node:crypto');
(async () => {
  const store = new MemoryFlowStore();
  const t = Date.now();
  const settle = () => { for (let i = 0; i < 4; i++) gc(); return process.memoryUsage().heapUsed; };
  const before = settle();
  for (let i = 0; i < ${FLOWS}; i++) {
    const id = randomBytes(16).toString('base64url');
    await store.claim(id, 'round-1', t + 600000, 30000, undefined, t);
    await store.release(id, 'round-1');
    await store.claim(id, 'round-2', t + 600000, 30000, undefined, t);
    await store.complete(id, 'round-2', 'ok', t + 600000, '"ok"');
  }
  const after = settle();
  process.stdout.write(JSON.stringify({ size: store.size, bytesPerRecord: (after - before) / ${FLOWS} }));
})();
`;

test(`a completed two-round flow costs the flow store about ${STATED} bytes of heap beside its result`, () => {
  const out = execFileSync(process.execPath, ['--expose-gc', '-e', CHILD], { encoding: 'utf8' });
  const { size, bytesPerRecord } = JSON.parse(out) as { size: number; bytesPerRecord: number };
  console.log(`${FLOWS} completed flows held: ${bytesPerRecord.toFixed(0)} heap bytes a record (docs: about ${STATED})`);
  expect(size).toBe(FLOWS); // every record still held (the default cap is 100 000): none let go early
  expect(bytesPerRecord).toBeGreaterThan(STATED / 2); // the records were measured, not collected
  expect(bytesPerRecord).toBeLessThan(BOUND);
});

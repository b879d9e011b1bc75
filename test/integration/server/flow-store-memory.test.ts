/**
 * The flow store's byte budgets hold in a real process (issue 31, N5): a child floods the default
 * in-memory store with 300 completed flows of one principal, each with a 1 MiB result (300 MiB in
 * all), and its RSS grows by far less than that — the 32 MiB per-principal share, plus the heap's
 * slack — while another principal's flow is still served. Uses the built dist (npm run build).
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const DIST = resolve(__dirname, '../../../dist/cjs/state/memory-flow-store.js');

const CHILD = `
const { MemoryFlowStore } = require(${JSON.stringify(DIST)});
(async () => {
  const s = new MemoryFlowStore();
  global.gc();
  const before = process.memoryUsage().rss;
  const big = 'x'.repeat(1 << 20);
  for (let i = 0; i < 300; i++) {
    const id = 'f' + i;
    await s.claim(id, 'h', Date.now() + 600000, 60_000, 'mallory');
    await s.complete(id, 'h', { text: big + i }, Date.now() + 600000);
  }
  // Freed large strings go back to the system once swept: collect, and let the sweeper finish.
  for (let i = 0; i < 5; i++) {
    global.gc();
    await new Promise((r) => setTimeout(r, 20));
  }
  const grown = process.memoryUsage().rss - before;
  const other = await s.claim('ada-1', 'h', Date.now() + 600000, 60_000, 'ada');
  const kept = await s.claim('f299', 'r', Date.now() + 600000, 60_000, 'mallory', Date.now() - 1000);
  const dropped = await s.claim('f0', 'r', Date.now() + 600000, 60_000, 'mallory', Date.now() - 60000);
  console.log(JSON.stringify({ grown, bytes: s.bytes, other: other.kind, kept: kept.kind, dropped: dropped.kind }));
})();
`;

test('300 MiB of completion results from one principal hold its 32 MiB share in RSS; others are served', () => {
  const out = spawnSync(process.execPath, ['--expose-gc', '-e', CHILD], { encoding: 'utf8', timeout: 120_000 });
  expect(out.status).toBe(0);
  const r = JSON.parse(out.stdout.trim().split('\n').pop()!) as Record<string, number | string>;
  expect(r.bytes).toBeLessThanOrEqual(32 * 1024 * 1024);
  expect(r.grown).toBeLessThan(128 * 1024 * 1024);
  expect(r).toMatchObject({ other: 'claimed', kept: 'completed', dropped: 'expired' });
});

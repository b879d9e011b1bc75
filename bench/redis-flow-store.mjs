// The Redis flow store's cost in Redis's own CPU (INFO commandstats), so the number does not depend
// on the client's machine or load: two-round flows (claim, release, claim, complete) with room, and
// under pressure (maxFlows far below the flood: every new flow lets the oldest completion go).
//   npm run build && node bench/redis-flow-store.mjs [--n 20000]
// Prints µs of Redis CPU per flow, and as a ratio to one lease renewal (the store's cheapest script,
// measured in the same run: the peer that cancels out the machine's speed). Needs redis-server.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const { connectRedis, RedisFlowStore } = require('../dist/cjs/redis/index.js');
const { values: a } = parseArgs({ options: { n: { type: 'string', default: '20000' } } });
const n = Number(a.n);

const port = await new Promise((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = s.address();
    s.close(() => resolve(free));
  });
});
const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
  stdio: 'ignore',
});
try {
  let conn;
  for (let i = 0; !conn; i++) {
    conn = await connectRedis({ url: `redis://127.0.0.1:${port}`, onError: () => {} }).catch((e) => {
      if (i > 100) throw e;
      return new Promise((r) => setTimeout(r, 50));
    });
  }
  const usec = async () => {
    const info = await conn.command(['INFO', 'commandstats']);
    return [...info.matchAll(/cmdstat_eval(?:sha)?:calls=\d+,usec=(\d+)/g)].reduce((s, m) => s + Number(m[1]), 0);
  };
  const measure = async (work) => {
    await conn.command(['CONFIG', 'RESETSTAT']);
    await work();
    return (await usec()) / n;
  };
  const flows = (store, tag) => async () => {
    const one = async (i) => {
      const id = `${tag}${i}`;
      const owner = `user${i % 20}`;
      await store.claim(id, 'h1', Date.now() + 600_000, 5_000, owner);
      await store.release(id, 'h1');
      await store.claim(id, 'h2', Date.now() + 600_000, 5_000, owner, Date.now());
      await store.complete(id, 'h2', { content: [{ type: 'text', text: 'ok' }] }, Date.now() + 600_000);
    };
    for (let i = 0; i < n; i += 20) await Promise.all(Array.from({ length: 20 }, (_, k) => one(i + k)));
  };
  const roomy = new RedisFlowStore(conn);
  const pressed = new RedisFlowStore(conn, { maxFlows: Math.max(100, Math.floor(n / 10)) });
  await roomy.claim('renewed', 'h', Date.now() + 600_000, 5_000);
  const renew = await measure(async () => {
    for (let i = 0; i < n; i += 20) {
      await Promise.all(Array.from({ length: 20 }, () => roomy.renew('renewed', 'h', 5_000)));
    }
  });
  const withRoom = await measure(flows(roomy, 'r'));
  const underPressure = await measure(flows(pressed, 'p'));
  console.log(`one lease renewal: ${renew.toFixed(1)} µs of Redis CPU`);
  console.log(`two-round flow, with room: ${withRoom.toFixed(0)} µs (${(withRoom / renew).toFixed(0)}× a renewal)`);
  console.log(`two-round flow, under pressure: ${underPressure.toFixed(0)} µs (${(underPressure / renew).toFixed(0)}× a renewal)`);
  console.log(`so one Redis core carries about ${Math.round(1e6 / Math.max(withRoom, underPressure))} two-round flows/s`);
  await conn.close();
} finally {
  redis.kill('SIGKILL');
}

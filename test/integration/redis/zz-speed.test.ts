import { RedisFlowStore } from '../../../src/redis';
import { RedisFlowStore as OldStore } from '../../../src/redis/zz-old-flow-store';
import { useRedisServer } from './fixture';
const redis = useRedisServer();
test('speed', async () => {
  const conn = await redis.connect();
  const run = async (s: { claim: Function; release: Function; complete: Function }, n: number, tag: string) => {
    await conn.command(['CONFIG', 'RESETSTAT']);
    const one = async (i: number) => {
      const id = `${tag}${i}`;
      await s.claim(id, 'h1', Date.now() + 600000, 5000, 'user' + (i % 20));
      await s.release(id, 'h1');
      await s.claim(id, 'h2', Date.now() + 600000, 5000, 'user' + (i % 20), Date.now());
      await s.complete(id, 'h2', { content: [{ type: 'text', text: 'ok' }] }, Date.now() + 600000);
    };
    for (let i = 0; i < n; i += 20) await Promise.all(Array.from({ length: 20 }, (_, k) => one(i + k)));
    const info = await conn.command<string>(['INFO', 'commandstats']);
    const usec = [...info.matchAll(/cmdstat_eval(?:sha)?:calls=\d+,usec=(\d+)/g)].reduce((a, m) => a + Number(m[1]), 0);
    return usec / n;
  };
  const old = new OldStore(await redis.connect());
  const pressured = new RedisFlowStore(await redis.connect(), { maxFlows: 3000 });
  const roomy = new RedisFlowStore(await redis.connect());
  await run(old, 1000, 'w'); await run(pressured, 1000, 'w'); await run(roomy, 1000, 'w');
  const r: string[] = [];
  for (let k = 0; k < 3; k++) {
    const o = await run(old, 4000, 'o' + k);
    const p = await run(pressured, 4000, 'p' + k);
    const n = await run(roomy, 4000, 'n' + k);
    r.push(`Redis CPU per two-round flow: old ${o.toFixed(0)} µs; pools with room ${n.toFixed(0)} µs (${(n / o).toFixed(2)}×); under pressure ${p.toFixed(0)} µs (${(p / o).toFixed(2)}×)`);
  }
  console.log(r.join('\n'));
}, 300000);

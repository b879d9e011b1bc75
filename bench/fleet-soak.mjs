// A soak through nginx (scripts/fleet.sh: Redis with its append-only file, three conformance-server
// instances): workers run three-round flows of test_fleet_ledger (its middle round runs a ctx.once,
// its last round writes a ledger line) for --seconds, sampling the instances' RSS every --every
// seconds. Prints flows completed and failed, the ledger's double runs (must be 0), the RSS of each
// instance at the start and end of the load, and Redis memory per flow kept. Run it by hand (not in
// CI); the issue asks for five minutes:  node bench/fleet-soak.mjs --seconds 300
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values: a } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    workers: { type: 'string', default: '16' },
    every: { type: 'string', default: '10' },
  },
});
const repo = fileURLToPath(new URL('..', import.meta.url));
const base = 20_000 + Math.floor(Math.random() * 20_000);
const dir = mkdtempSync(join(tmpdir(), 'omc-fleet-soak-'));
const env = {
  ...process.env,
  FLEET_APP: 'conformance',
  FLEET_DIR: dir,
  FLEET_LB_PORT: String(base),
  FLEET_PORT_BASE: String(base + 1),
  FLEET_REDIS_PORT: String(base + 4),
  FLEET_LEDGER: join(dir, 'ledger.txt'),
};
const fleet = (...args) => execFileSync('bash', ['scripts/fleet.sh', ...args], { cwd: repo, env }).toString();
const redis = (...args) => execFileSync('redis-cli', ['-p', String(base + 4), ...args]).toString().trim();
const rssMb = (n) => {
  const pid = readFileSync(join(dir, `i${n}.pid`), 'utf8').trim();
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return Math.round(Number(line.split(/\s+/)[1]) / 1024);
};

let id = 0;
function call(params) {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: ++id,
    method: 'tools/call',
    params: {
      arguments: {},
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
      },
    },
  });
  const headers = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': '2026-07-28',
    'Mcp-Method': 'tools/call',
    'Mcp-Name': params.name,
  };
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port: base, path: '/mcp', method: 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => {
        try {
          const json = text.startsWith('{') ? text : text.split('\n').filter((l) => l.startsWith('data: ')).pop().slice(6);
          resolve(JSON.parse(json).result);
        } catch {
          resolve(undefined);
        }
      });
    });
    req.on('error', () => resolve(undefined));
    req.end(body);
  });
}

const yes = { action: 'accept', content: { confirm: true } };
const counts = { flows: 0, failedRequests: 0 };
let stop = false;
async function until(params) {
  for (;;) {
    const r = await call(params);
    if (r) return r;
    counts.failedRequests++;
    await new Promise((res) => setTimeout(res, 100));
  }
}
async function worker(w) {
  for (let i = 0; !stop; i++) {
    const tag = `soak-${w}-${i}`;
    const r1 = await until({ name: 'test_fleet_ledger', arguments: { tag } });
    const r2 = await until({ name: 'test_fleet_ledger', arguments: { tag }, requestState: r1.requestState, inputResponses: { go: yes } });
    const name = { action: 'accept', content: { name: 'Soak' } };
    await until({ name: 'test_fleet_ledger', arguments: { tag }, requestState: r2.requestState, inputResponses: { name } });
    counts.flows++;
  }
}

try {
  fleet('up');
  const usedAtStart = Number(/used_memory:(\d+)/.exec(redis('INFO', 'memory'))[1]);
  const rss = [[1, 2, 3].map(rssMb)];
  const load = Promise.all(Array.from({ length: Number(a.workers) }, (_, w) => worker(w)));
  const started = Date.now();
  while (Date.now() - started < Number(a.seconds) * 1000) {
    await new Promise((r) => setTimeout(r, Number(a.every) * 1000));
    rss.push([1, 2, 3].map(rssMb));
    console.log(`${Math.round((Date.now() - started) / 1000)} s: ${counts.flows} flows, RSS MB ${rss.at(-1).join(' / ')}`);
  }
  stop = true;
  await load;
  const lines = readFileSync(join(dir, 'ledger.txt'), 'utf8').trim().split('\n');
  const per = new Map();
  for (const line of lines) {
    const [kind, tag] = line.split(' ');
    const key = `${kind} ${tag}`;
    per.set(key, (per.get(key) ?? 0) + 1);
  }
  const twice = [...per.values()].filter((n) => n > 1).length;
  const used = Number(/used_memory:(\d+)/.exec(redis('INFO', 'memory'))[1]);
  const keys = Number(redis('DBSIZE'));
  console.log(
    JSON.stringify({
      seconds: Number(a.seconds),
      workers: Number(a.workers),
      flows: counts.flows,
      flowsPerSec: +(counts.flows / Number(a.seconds)).toFixed(1),
      failedRequests: counts.failedRequests,
      doubleRuns: twice,
      rssStartMb: rss[1] ?? rss[0],
      // Halfway too: growth that stops in the second half is a heap settling, not a leak.
      rssMidMb: rss[Math.ceil(rss.length / 2)] ?? rss.at(-1),
      rssEndMb: rss.at(-1),
      redisKeys: keys,
      // Each flow that asked is one hash, kept requestStateLifetime after its last round.
      redisBytesPerFlow: keys ? Math.round((used - usedAtStart) / keys) : 0,
    }),
  );
  if (twice > 0) process.exitCode = 1;
} finally {
  fleet('down');
  rmSync(dir, { recursive: true, force: true });
}

// Throughput through nginx (deploy/nginx.conf, started by scripts/fleet.sh): 2026 echo calls and
// two-round MRTR flows per second, with one and with three instances of our server, Redis stores
// off and on. Every response is checked. On a 2-core machine the instances, nginx, Redis and the
// load generator share two cores: read the ratios, not the absolute numbers.
//   node bench/fleet.mjs [--seconds 5] [--connections 32] [--configs 1:off,3:off,1:on,3:on]
// --compare <dist/cjs of another build> --rounds 3: each config is measured on both builds, alternating,
// and the ratio of the medians (this build / the other) is printed; e.g. the flow lease's cost:
//   node bench/fleet.mjs --configs 1:on --compare /path/to/base/dist/cjs --rounds 3
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { load } from './lib/targets.mjs';
import { prepare } from './lib/prepare.mjs';
import { runLoad } from './lib/load.mjs';

const { values: a } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '32' },
    configs: { type: 'string', default: '1:off,3:off,1:on,3:on' },
    compare: { type: 'string' },
    rounds: { type: 'string', default: '3' },
  },
});
const configs = a.configs.split(',').map((c) => [Number(c.split(':')[0]), c.split(':')[1] === 'on']);
const repo = fileURLToPath(new URL('..', import.meta.url));
const base = 20_000 + Math.floor(Math.random() * 20_000);

function fleet(command, env) {
  return execFileSync('bash', ['scripts/fleet.sh', command], { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'] }).toString();
}

async function measure(instances, redis, dist) {
  const dir = mkdtempSync(join(tmpdir(), 'omc-fleet-bench-'));
  const env = {
    ...process.env,
    FLEET_DIR: dir,
    FLEET_ENTRY: 'bench/servers/ours.cjs',
    FLEET_INSTANCES: String(instances),
    FLEET_LB_PORT: String(base),
    FLEET_PORT_BASE: String(base + 1),
    FLEET_REDIS_PORT: String(base + 4),
    ...(redis ? {} : { FLEET_NO_REDIS: '1' }),
    TOOLS: 'echo,confirm_echo',
    ...(dist ? { OMC_DIST: dist } : {}),
  };
  try {
    fleet('up', env);
    const pid = Number(readFileSync(join(dir, 'i1.pid'), 'utf8'));
    const row = { instances, redis: redis ? 'on' : 'off' };
    for (const kind of ['call', 'mrtr']) {
      const spec = load(`fleet-${kind}`, 'ours-fleet', kind);
      const prepared = await prepare(spec, base);
      await runLoad(spec, { port: base, pid, prepared, connections: 8, seconds: 1, record: false });
      const m = await runLoad(spec, { port: base, pid, prepared, connections: Number(a.connections), seconds: Number(a.seconds) });
      const bad = m.mismatches + m.non2xx + m.errors;
      if (kind === 'call') Object.assign(row, { echoRps: Math.round(m.rps), echoP99ms: +m.p99ms.toFixed(1), echoBad: bad });
      else Object.assign(row, { flowsPerSec: Math.round(m.flowsPerSec), flowP99ms: +m.p99ms.toFixed(1), flowBad: bad });
    }
    return row;
  } finally {
    try {
      fleet('down', env);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

const ratio = (x, y) => (y ? (x / y).toFixed(2) : 'n/a');
if (a.compare) {
  const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  for (const [instances, redis] of configs) {
    const ours = [];
    const theirs = [];
    for (let i = 0; i < Number(a.rounds); i++) {
      theirs.push(await measure(instances, redis, a.compare));
      ours.push(await measure(instances, redis));
    }
    const pick = (rows, key) => median(rows.map((r) => r[key]));
    console.table([
      { build: 'this', echoRps: pick(ours, 'echoRps'), flowsPerSec: pick(ours, 'flowsPerSec') },
      { build: 'other', echoRps: pick(theirs, 'echoRps'), flowsPerSec: pick(theirs, 'flowsPerSec') },
    ]);
    console.log(
      `${instances} instance(s), Redis ${redis ? 'on' : 'off'}, ${a.rounds} alternating rounds: this build / the other: ` +
        `echo ${ratio(pick(ours, 'echoRps'), pick(theirs, 'echoRps'))}×, flows ${ratio(pick(ours, 'flowsPerSec'), pick(theirs, 'flowsPerSec'))}×`,
    );
  }
  process.exit(0);
}

const rows = [];
for (const [instances, redis] of configs) rows.push(await measure(instances, redis));
console.table(rows);
const find = (i, r) => rows.find((row) => row.instances === i && row.redis === r);
if (find(3, 'off') && find(1, 'off'))
  console.log(`three instances vs one, Redis off: echo ${ratio(find(3, 'off').echoRps, find(1, 'off').echoRps)}×, flows ${ratio(find(3, 'off').flowsPerSec, find(1, 'off').flowsPerSec)}×`);
if (find(3, 'on') && find(3, 'off'))
  console.log(`Redis on vs off, three instances: echo ${ratio(find(3, 'on').echoRps, find(3, 'off').echoRps)}×, flows ${ratio(find(3, 'on').flowsPerSec, find(3, 'off').flowsPerSec)}×`);
if (rows.some((r) => r.echoBad || r.flowBad)) {
  console.error('some responses were wrong (see the table)');
  process.exitCode = 1;
}

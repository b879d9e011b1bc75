// requestState codec cost: seal and open, HMAC vs AES-256-GCM, 1 KiB and 8 KiB payloads.
// Prints µs/op (median of several batches), as CPU time of this thread (process.cpuUsage), so other
// processes on a shared machine inflate it less than wall time. Asserts nothing about time.
//
//   npx tsc -p tsconfig.build.json && node bench/state-codec.mjs
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';

const require = createRequire(import.meta.url);
const { createRequestStateCodec } = require('../dist/cjs/state/index.js');

const BATCHES = 9;
const OPS_PER_BATCH = 2000;

const binding = {
  method: 'tools/call',
  target: 'deploy',
  principal: 'user-123',
  revision: '2026-07-28',
  params: { name: 'deploy', arguments: { env: 'prod', replicas: 3, tags: ['a', 'b'] }, _meta: { progressToken: 7 } },
};

function payloadOf(bytes) {
  // Answers journal + handler state, roughly the shape the context layer stores.
  const filler = randomBytes(Math.ceil(bytes * 0.75)).toString('base64url').slice(0, Math.max(0, bytes - 120));
  return { v: 1, journal: [{ key: 'confirm:0', answer: { action: 'accept', content: { ok: true } } }], state: { note: filler } };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function cpuUs(start) {
  const d = process.cpuUsage(start);
  return d.user + d.system;
}

function timeBatches(run) {
  for (let i = 0; i < 500; i++) run(i); // warm-up
  const perOp = [];
  for (let b = 0; b < BATCHES; b++) {
    const start = process.cpuUsage();
    for (let i = 0; i < OPS_PER_BATCH; i++) run(i);
    perOp.push(cpuUs(start) / OPS_PER_BATCH);
  }
  return median(perOp);
}

async function timeOpenBatches(codec, tokens) {
  for (let i = 0; i < 500; i++) await codec.open(tokens[i % tokens.length], binding);
  const perOp = [];
  for (let b = 0; b < BATCHES; b++) {
    const start = process.cpuUsage();
    for (let i = 0; i < OPS_PER_BATCH; i++) await codec.open(tokens[i % tokens.length], binding);
    perOp.push(cpuUs(start) / OPS_PER_BATCH);
  }
  return median(perOp);
}

const key = randomBytes(32);
const rows = [];
for (const encrypt of [false, true]) {
  const codec = createRequestStateCodec({ requestStateKey: key, encryptRequestState: encrypt, requestStateAudience: 'bench' });
  for (const size of [1024, 8192]) {
    const payload = payloadOf(size);
    if (Math.abs(JSON.stringify(payload).length - size) > 64) throw new Error('payload size off');
    const sealUs = timeBatches(() => codec.seal(payload, binding));
    const tokens = Array.from({ length: 256 }, () => codec.seal(payload, binding));
    const openUs = await timeOpenBatches(codec, tokens);
    rows.push({
      mode: encrypt ? 'AES-256-GCM' : 'HMAC-SHA256',
      payload: `${size / 1024} KiB`,
      token: `${tokens[0].length} B`,
      'seal µs/op': sealUs.toFixed(1),
      'open µs/op': openUs.toFixed(1),
    });
  }
}

console.log(`node ${process.version}, ${BATCHES} batches x ${OPS_PER_BATCH} ops, median batch, CPU µs of this thread`);
console.table(rows);

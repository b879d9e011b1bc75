// requestState codec cost: seal and open, HMAC vs AES-256-GCM, 1 KiB and 8 KiB payloads; opening by
// another instance (the full path) and by the one that sealed the token (from memory); and the AEAD
// primitives node:crypto offers, beside the HMAC. Prints µs/op (median of several batches), as CPU time
// of this process (process.cpuUsage), so other processes on a shared machine inflate it less than wall
// time; compare the ratios of one run. Asserts nothing about time.
//
//   npm run build && node bench/state-codec.mjs
import { createRequire } from 'node:module';
import { createCipheriv, createSecretKey, hash, randomBytes, subtle } from 'node:crypto';

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

/**
 * Opens tokens `codec` sealed just before each batch, by another instance (`other`: the full path) and by
 * `codec` itself (from memory), batches alternating so both carry the same garbage and machine noise.
 */
async function timeFreshOpens(codec, other, payload) {
  const perOp = { other: [], home: [] };
  for (let b = 0; b < 2 * BATCHES; b++) {
    const side = b % 2 === 0 ? 'other' : 'home';
    const tokens = Array.from({ length: OPS_PER_BATCH }, () => codec.seal(payload, binding));
    const opener = side === 'other' ? other : codec;
    const start = process.cpuUsage();
    for (const token of tokens) await opener.open(token, binding);
    perOp[side].push(cpuUs(start) / OPS_PER_BATCH);
  }
  return { fullUs: median(perOp.other), homeUs: median(perOp.home) };
}

const key = randomBytes(32);
const rows = [];
const homeRows = [];
for (const encrypt of [false, true]) {
  const options = { requestStateKey: key, encryptRequestState: encrypt, requestStateAudience: 'bench' };
  const codec = createRequestStateCodec(options);
  // Another instance with the same key: it opens every token the full way (decode, verify or decrypt, claims).
  const other = createRequestStateCodec(options);
  for (const size of [1024, 8192]) {
    const payload = payloadOf(size);
    if (Math.abs(JSON.stringify(payload).length - size) > 64) throw new Error('payload size off');
    const sealUs = timeBatches(() => codec.seal(payload, binding));
    const tokens = Array.from({ length: 256 }, () => codec.seal(payload, binding));
    const openUs = await timeOpenBatches(other, tokens);
    const mode = encrypt ? 'AES-256-GCM' : 'HMAC-SHA256';
    rows.push({
      mode,
      payload: `${size / 1024} KiB`,
      token: `${tokens[0].length} B`,
      'seal µs/op': sealUs.toFixed(1),
      'open µs/op': openUs.toFixed(1),
    });
    const { fullUs, homeUs } = await timeFreshOpens(codec, other, payload);
    homeRows.push({
      mode: `${mode}, ${size / 1024} KiB`,
      'open by another µs/op': fullUs.toFixed(1),
      'open where sealed µs/op': homeUs.toFixed(1),
      ratio: (homeUs / fullUs).toFixed(2),
    });
  }
}

console.log(`node ${process.version}, ${BATCHES} batches x ${OPS_PER_BATCH} ops, median batch, CPU µs of this process`);
console.log('seal, and open by another instance with the same key (the full path):');
console.table(rows);
console.log('fresh tokens opened by another instance, and by the one that sealed them (claims kept in memory until then):');
console.table(homeRows);

// The AEAD primitives node offers for one token's claims (~1.7 KB), against the HMAC's two one-shot
// SHA-256 (what a v1. seal costs in crypto). CPU of the whole process: WebCrypto runs on the thread pool.
const claims = randomBytes(1700);
const pad = randomBytes(64 + claims.length);
const aesKey = createSecretKey(randomBytes(32));
const chachaKey = createSecretKey(randomBytes(32));
const cryptoKey = await subtle.importKey('raw', randomBytes(32), 'AES-GCM', false, ['encrypt']);
const iv = randomBytes(12);
const aad = randomBytes(40);
async function timePrimitive(run) {
  const perOp = [];
  for (let i = 0; i < 200; i++) await run();
  for (let b = 0; b < BATCHES; b++) {
    const start = process.cpuUsage();
    for (let i = 0; i < OPS_PER_BATCH / 4; i++) await run();
    perOp.push(cpuUs(start) / (OPS_PER_BATCH / 4));
  }
  return median(perOp);
}
const primitives = {
  'HMAC-SHA256 as two one-shot hash() (v1.)': () => { hash('sha256', pad, 'binary'); hash('sha256', pad.subarray(0, 96), 'binary'); },
  'createCipheriv aes-256-gcm, setAAD, update, final, getAuthTag (v1e.)': () => {
    const c = createCipheriv('aes-256-gcm', aesKey, iv); c.setAAD(aad); c.update(claims); c.final(); c.getAuthTag();
  },
  'the same without setAAD': () => { const c = createCipheriv('aes-256-gcm', aesKey, iv); c.update(claims); c.final(); c.getAuthTag(); },
  'createCipheriv chacha20-poly1305 (another option value, not a swap)': () => {
    const c = createCipheriv('chacha20-poly1305', chachaKey, iv, { authTagLength: 16 }); c.setAAD(aad); c.update(claims); c.final(); c.getAuthTag();
  },
  'crypto.subtle.encrypt AES-GCM, imported CryptoKey': () => subtle.encrypt({ name: 'AES-GCM', iv, additionalData: aad }, cryptoKey, claims),
};
const primitiveRows = [];
let hmacUs;
for (const [label, run] of Object.entries(primitives)) {
  const us = await timePrimitive(run);
  hmacUs ??= us;
  primitiveRows.push({ primitive: label, 'µs/op': us.toFixed(2), '÷ HMAC': (us / hmacUs).toFixed(2) });
}
console.log('AEAD primitives for 1.7 KB of claims:');
console.table(primitiveRows);

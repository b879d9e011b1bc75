// One extra operation the echo tool can do per call (servers/ours.cjs, EXTRA=<name>): what a single
// node:crypto call, or the same cost in plain JavaScript, costs inside a request served over sockets,
// against the same call in a tight loop (bench/cpu-split.mjs --env EXTRA=<name> prints both). Not part
// of any bench row.
const crypto = require('node:crypto');

const KEY = crypto.randomBytes(32);
const PAYLOAD = crypto.randomBytes(700); // about a requestState's size

const TEXT = PAYLOAD.toString('latin1');

const EXTRA_WORK = {
  /** Plain JavaScript of about an AES seal + open's tight-loop cost: is the inflation native calls', or any work's? */
  js: () => {
    let h = 0x811c9dc5;
    for (let round = 0; round < 11; round++) for (let i = 0; i < TEXT.length; i++) h = Math.imul(h ^ TEXT.charCodeAt(i), 16777619);
    return h;
  },
  /** One-shot SHA-256 (what the params digest and the HMAC codec use). */
  hash: () => crypto.hash('sha256', PAYLOAD),
  /** An Hmac object. */
  hmac: () => crypto.createHmac('sha256', KEY).update(PAYLOAD).digest(),
  /** AES-256-GCM encrypt then decrypt with cipher objects and a random IV (what an AES seal + open does). */
  aes: () => {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', KEY, iv);
    const sealed = Buffer.concat([cipher.update(PAYLOAD), cipher.final()]);
    const decipher = crypto.createDecipheriv('aes-256-gcm', KEY, iv);
    decipher.setAuthTag(cipher.getAuthTag());
    return Buffer.concat([decipher.update(sealed), decipher.final()]);
  },
};

/** The named operation, or undefined for none; an unknown name is a mistake, not a silent no-op. */
function extraWork(name) {
  if (!name) return undefined;
  const work = EXTRA_WORK[name];
  if (!work) throw new Error(`unknown EXTRA ${name} (one of ${Object.keys(EXTRA_WORK).join(', ')})`);
  return work;
}

module.exports = { extraWork };

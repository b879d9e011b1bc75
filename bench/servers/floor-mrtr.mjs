// The floor of a two-round MRTR flow (issue 34): what node:http and node:crypto alone cost for it.
// Round 1: parse the body, seal the arguments (one seal), answer input_required with the elicitation
// and the token. Round 2: parse, open the token (one open), answer the echoed text. No header,
// schema, binding beyond the tool name, expiry or _meta checks: a floor to read ratios against, not a peer.
// Env: PORT, MODE=hmac (HMAC-SHA256 over the JSON, one createHmac each way) | aes (AES-256-GCM, a
// random IV per token, one cipher object each way).
import { createServer } from 'node:http';
import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const port = Number(process.env.PORT || 4242);
const aes = process.env.MODE === 'aes';
const key = randomBytes(32);
const ASK = {
  method: 'elicitation/create',
  params: { mode: 'form', message: 'Echo "hello"?', requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', title: 'Confirm' } }, required: ['confirm'] } },
};

function seal(claims) {
  const text = Buffer.from(JSON.stringify(claims));
  if (!aes) return `${text.toString('base64url')}.${createHmac('sha256', key).update(text).digest('base64url')}`;
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([c.update(text), c.final()]);
  return Buffer.concat([iv, body, c.getAuthTag()]).toString('base64url');
}

function open(token) {
  if (typeof token !== 'string') return undefined;
  let text;
  if (!aes) {
    const dot = token.indexOf('.');
    if (dot < 0) return undefined;
    text = Buffer.from(token.slice(0, dot), 'base64url');
    const mac = Buffer.from(token.slice(dot + 1), 'base64url');
    const want = createHmac('sha256', key).update(text).digest();
    if (mac.length !== want.length || !timingSafeEqual(mac, want)) return undefined;
  } else {
    const raw = Buffer.from(token, 'base64url');
    if (raw.length < 29) return undefined;
    try {
      const d = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12), { authTagLength: 16 });
      d.setAuthTag(raw.subarray(raw.length - 16));
      text = Buffer.concat([d.update(raw.subarray(12, raw.length - 16)), d.final()]);
    } catch { return undefined; }
  }
  return JSON.parse(text.toString('utf8'));
}

function send(res, obj) {
  const out = JSON.stringify(obj);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
  res.end(out);
}

createServer((req, res) => {
  if (req.method !== 'POST') return void res.writeHead(405).end();
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let msg;
    try { msg = JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch {
      return send(res, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    }
    const p = msg.params ?? {};
    if (msg.method !== 'tools/call' || p.name !== 'confirm_echo' || typeof p.arguments?.text !== 'string')
      return send(res, { jsonrpc: '2.0', id: msg.id ?? null, error: { code: -32601, message: 'Method not found' } });
    if (p.requestState === undefined) {
      const requestState = seal({ t: p.name, text: p.arguments.text });
      return send(res, { jsonrpc: '2.0', id: msg.id, result: { resultType: 'input_required', inputRequests: { confirm: ASK }, requestState } });
    }
    const claims = open(p.requestState);
    if (!claims || claims.t !== p.name || p.inputResponses?.confirm?.action !== 'accept')
      return send(res, { jsonrpc: '2.0', id: msg.id, error: { code: -32602, message: 'Invalid or expired requestState' } });
    send(res, { jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text: claims.text }], resultType: 'complete' } });
  });
}).listen(port, '127.0.0.1', () => console.log(`floor-mrtr listening ${port} mode=${aes ? 'aes' : 'hmac'}`));

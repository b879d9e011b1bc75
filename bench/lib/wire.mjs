// Request shapes of both eras (perf-anchors "Request shapes used") and a tiny node:http client.
import { request } from 'node:http';
import { connect } from 'node:net';

export const MODERN = '2026-07-28';
export const LEGACY = '2025-11-25';

const CAPS = { elicitation: { form: {} } };

export function modernBody(method, params = {}, id = 1) {
  const _meta = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': CAPS };
  return JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta } });
}

export function legacyBody(method, params = {}, id = 1) {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params });
}

export function modernHeaders(method, name) {
  const h = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': method };
  if (name) h['mcp-name'] = name;
  return h;
}

export function legacyHeaders(sessionId) {
  const h = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': LEGACY };
  if (sessionId) h['mcp-session-id'] = sessionId;
  return h;
}

/** One POST on a fresh connection; resolves {status, headers, text}. */
export function post(port, headers, body, timeoutMs = 5000) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', agent: false, timeout: timeoutMs,
      headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

/** The JSON-RPC message of a body: plain JSON, or the first `data:` frame of an SSE body. */
export function messageOf(text) {
  if (text.startsWith('{')) return JSON.parse(text);
  const data = text.split('\n').find((l) => l.startsWith('data:') && l.length > 6);
  if (!data) throw new Error(`no data frame in ${text.slice(0, 120)}`);
  return JSON.parse(data.slice(5));
}

/** initialize + notifications/initialized; resolves the session id. */
export async function openLegacySession(port) {
  const init = await post(port, legacyHeaders(), legacyBody('initialize', {
    protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'bench', version: '1.0.0' },
  }, 0));
  const sid = init.headers['mcp-session-id'];
  if (init.status !== 200 || !sid) throw new Error(`initialize failed: ${init.status} ${init.text.slice(0, 200)}`);
  const note = await post(port, legacyHeaders(sid), JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  if (note.status !== 202 && note.status !== 200) throw new Error(`initialized notification: ${note.status}`);
  return sid;
}

/** Resolves true once the port accepts a TCP connection (no request, so no server log noise). */
export function listening(port) {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => { socket.destroy(); resolve(true); });
    socket.once('error', reject);
  });
}

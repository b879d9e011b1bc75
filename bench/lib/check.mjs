// Correctness of one response: the first one of every load is checked here before any load runs;
// under load the same check (or an exact body match) runs on every response.
import { messageOf } from './wire.mjs';

/** Throws with the reason when `text` is not the expected answer for this load. */
export function checkResponse(spec, status, text) {
  if (status !== 200) throw new Error(`${spec.label}: HTTP ${status} ${text.slice(0, 200)}`);
  const msg = messageOf(text);
  if (msg.error) throw new Error(`${spec.label}: JSON-RPC error ${JSON.stringify(msg.error).slice(0, 200)}`);
  const r = msg.result;
  if (spec.kind === 'list') {
    if (!Array.isArray(r?.tools) || r.tools.length !== spec.tools) throw new Error(`${spec.label}: expected ${spec.tools} tools, got ${r?.tools?.length}`);
    return;
  }
  if (r?.content?.[0]?.text !== spec.expectText) throw new Error(`${spec.label}: wrong result ${text.slice(0, 200)}`);
  if (spec.kind === 'call' && r.resultType !== 'complete') throw new Error(`${spec.label}: no resultType complete`);
}

/** A cheap per-response predicate for autocannon's verifyBody (bodies whose id varies). */
export function bodyVerifier(spec) {
  return (body) => {
    try { checkResponse(spec, 200, body); return true; } catch { return false; }
  };
}

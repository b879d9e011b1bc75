// The scenarios of issues #8 and #20. The first loads marked `ours` are compared with every other load of
// the same scenario, round by round.
import { AUTHORIZED, FIXED, FIXED_TEXT, load, SIGNUP, SIGNUP_TEXT } from './targets.mjs';

const ours = (label, proc, kind, extra) => ({ ...load(label, proc, kind, extra), ours: true });
const signup = { call: SIGNUP, expectText: SIGNUP_TEXT };
const fixed = { call: FIXED, expectText: FIXED_TEXT };

export const SCENARIOS = [
  {
    id: 'echo-2026', title: 'tools/call echo, 2026-07-28, JSON response', connections: [32, 1],
    loads: [ours('ours', 'ours-echo', 'call'), load('sdk-v2', 'v2-echo', 'call'), load('sdk-v1 (2025-11-25 wire)', 'v1', 'legacy'), load('raw node:http', 'raw', 'call')],
  },
  {
    // Issue 20's headline: the SDK v2's best case (a tool without inputSchema: it validates nothing).
    id: 'fixed-2026', title: 'tools/call of a no-argument fixed-text tool (test_simple_text), 2026-07-28, JSON response', connections: [32],
    loads: [ours('ours', 'ours-fixed', 'call', fixed), ours('ours, --max-semi-space-size=4', 'ours-fixed-semi4', 'call', fixed), load('sdk-v2', 'v2-fixed', 'call', fixed), load('raw node:http', 'raw', 'call', fixed)],
  },
  {
    id: 'echo-legacy', title: 'tools/call echo, 2025-11-25 (ours: one initialized session)', connections: [32],
    loads: [ours('ours (session)', 'ours-echo', 'session'), load('sdk-v1 (stateless)', 'v1', 'legacy'), load('sdk-v2 legacy fallback (stateless, SSE)', 'v2-echo', 'legacy')],
  },
  {
    id: 'form10', title: 'tools/call with a 10-field validated DTO, 2026-07-28', connections: [32],
    loads: [ours('ours', 'ours-form10', 'call', signup), load('sdk-v2', 'v2-form10', 'call', signup)],
  },
  {
    id: 'list-200', title: 'tools/list with 200 tools, 2026-07-28', connections: [32],
    loads: [ours('ours', 'ours-200', 'list', { tools: 200 }), load('sdk-v2', 'v2-200', 'list', { tools: 200 })],
  },
  {
    id: 'echo-200', title: 'tools/call echo with 200 registered tools (flatness), 2026-07-28', connections: [32],
    loads: [ours('ours, 200 tools', 'ours-200', 'call'), load('ours, 1 tool', 'ours-echo', 'call'), load('sdk-v2, 200 tools', 'v2-200', 'call')],
  },
  {
    // Issue 20: each new layer's cost when used (its cost when unused is every other row: the layers are built in).
    id: 'layers', title: 'tools/call echo with the new layers in use, 2026-07-28', connections: [32],
    loads: [ours('ours, one guard + one interceptor', 'ours-guarded', 'call'), ours('ours, OpenTelemetry SDK (in-memory exporters)', 'ours-otel', 'call'), ours('ours, OAuth: a JWT (verified-token cache, default)', 'ours-jwt', 'call', AUTHORIZED), ours('ours, OAuth: a JWT verified per request (cached JWKS, jwtCacheSeconds 0)', 'ours-jwt-each', 'call', AUTHORIZED), load('ours, no layer', 'ours-echo', 'call')],
  },
  {
    // Its own rounds in a full run: its per-round ratios spread the most (a slow window of the machine doubles one
    // server's cost for 15-30 s, and a round's ratio rests on two of them), so the median needs more rounds than
    // five to set one window aside. 12 x (1 + 5) s x 6 loads ≈ 7 min. --rounds (or --smoke) overrides it.
    id: 'mrtr', title: 'MRTR: elicitation round then completion (one flow = 2 requests), 2026-07-28', connections: [32],
    full: { rounds: 12, warmupS: 1, durationS: 5 },
    loads: [ours('ours HMAC state', 'ours-mrtr-hmac', 'mrtr'), ours('ours AES-GCM state', 'ours-mrtr-aes', 'mrtr'), ours('ours AES-GCM + single-use state', 'ours-mrtr-aes-once', 'mrtr'), load('sdk-v2 createRequestStateCodec', 'v2-mrtr', 'mrtr'),
      load('floor: raw node:http + HMAC seal/open', 'floor-mrtr-hmac', 'mrtr'), load('floor: raw node:http + AES-GCM seal/open', 'floor-mrtr-aes', 'mrtr')],
  },
];

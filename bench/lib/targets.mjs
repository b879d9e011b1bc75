// What runs: server processes (file, env, port) and the loads aimed at them.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_JWK, BENCH_TOKEN } from './bench-jwt.mjs';

const server = (name) => fileURLToPath(new URL(`../servers/${name}`, import.meta.url));

/** BENCH_PORT_OFFSET shifts every port, so two runs on one machine do not meet. */
export const port = (n) => n + Number(process.env.BENCH_PORT_OFFSET || 0);

/** Every server process a scenario may need; each runs alone on CPU 0. */
export const PROCESSES = {
  'ours-echo': { file: server('ours.cjs'), port: port(4211), env: { TOOLS: 'echo' } },
  'ours-fixed': { file: server('ours.cjs'), port: port(4216), env: { TOOLS: 'fixed' } },
  'ours-mrtr-aes-once': { file: server('ours.cjs'), port: port(4217), env: { TOOLS: 'echo,confirm_echo', ENCRYPT: '1', SINGLE_USE: '1' } },
  'ours-fixed-semi4': { file: server('ours.cjs'), port: port(4218), env: { TOOLS: 'fixed', NODE_OPTIONS: '--max-semi-space-size=4' } },
  'ours-guarded': { file: server('ours.cjs'), port: port(4219), env: { TOOLS: 'echo', GUARDS: '1' } },
  'ours-otel': { file: server('ours.cjs'), port: port(4220), env: { TOOLS: 'echo', OTEL: '1' } },
  // OAuth resource server: the request's ES256 JWT checked against a cached JWKS (served by the process itself),
  // with the default verified-token cache (jwtCacheSeconds 30) and with it off (a signature check per request).
  'ours-jwt': { file: server('ours.cjs'), port: port(4226), env: { TOOLS: 'echo', OAUTH_JWK: BENCH_JWK } },
  'ours-jwt-each': { file: server('ours.cjs'), port: port(4227), env: { TOOLS: 'echo', OAUTH_JWK: BENCH_JWK, JWT_CACHE_SECONDS: '0' } },
  'ours-form10': { file: server('ours.cjs'), port: port(4212), env: { TOOLS: 'echo,form10' } },
  'ours-200': { file: server('ours.cjs'), port: port(4213), env: { TOOLS: 'echo', NTOOLS: '200' } },
  'ours-mrtr-hmac': { file: server('ours.cjs'), port: port(4214), env: { TOOLS: 'echo,confirm_echo' } },
  'ours-mrtr-aes': { file: server('ours.cjs'), port: port(4215), env: { TOOLS: 'echo,confirm_echo', ENCRYPT: '1' } },
  'v2-echo': { file: server('sdk-v2.mjs'), port: port(4221), env: { TOOLS: 'echo' } },
  'v2-fixed': { file: server('sdk-v2.mjs'), port: port(4225), env: { TOOLS: 'fixed' } },
  'v2-form10': { file: server('sdk-v2.mjs'), port: port(4222), env: { TOOLS: 'echo,form10' } },
  'v2-200': { file: server('sdk-v2.mjs'), port: port(4223), env: { TOOLS: 'echo', NTOOLS: '200' } },
  'v2-mrtr': { file: server('sdk-v2.mjs'), port: port(4224), env: { TOOLS: 'echo,confirm_echo' } },
  'v1': { file: server('sdk-v1.mjs'), port: port(4231), env: {} },
  'raw': { file: server('raw.mjs'), port: port(4241), env: {} },
  // The MRTR floor (issue 34): two raw node:http exchanges + one seal + one open, no framework.
  'floor-mrtr-hmac': { file: server('floor-mrtr.mjs'), port: port(4243), env: { MODE: 'hmac' } },
  'floor-mrtr-aes': { file: server('floor-mrtr.mjs'), port: port(4244), env: { MODE: 'aes' } },
};

/**
 * Registers process `name` as built by another checkout (`dist`: its dist/cjs) under the name `as`, on a port 100
 * above: a fresh-process A/B beside the current build in the same run (`--base` of mrtr.mjs and gc-split.mjs).
 */
export function addBaseProcess(name, as, dist) {
  const dir = resolve(dist);
  if (!existsSync(`${dir}/index.js`)) throw new Error(`--base ${dist}: no index.js there (give a build's dist/cjs)`);
  const same = PROCESSES[name];
  PROCESSES[as] = { ...same, port: same.port + 100, env: { ...same.env, OMC_DIST: dir } };
}

export const ECHO = { name: 'echo', arguments: { text: 'hello' } };
/** The conformance server's no-argument tool; the SDK v2 validates nothing for it. */
export const FIXED = { name: 'test_simple_text', arguments: {} };
export const FIXED_TEXT = 'This is a simple text response for testing.';
export const SIGNUP = {
  name: 'signup',
  arguments: { name: 'Ada Lovelace', email: 'ada@example.com', age: 36, country: 'NL', city: 'Utrecht', zip: '35120',
    newsletter: true, score: 97.5, tags: ['math', 'engines'], note: 'first programmer' },
};
export const SIGNUP_TEXT = 'Ada Lovelace <ada@example.com>';

/**
 * A load: `proc` answers `kind` requests. kinds: call (2026, JSON), list (2026 tools/list),
 * legacy (2025-11-25 without session), session (2025-11-25 on one initialized session), mrtr (two rounds).
 */
export const load = (label, proc, kind, extra = {}) => ({ label, proc, kind, call: ECHO, expectText: 'hello', ...extra });

/** Request headers a load adds (the bearer token of `ours-jwt`). */
export const AUTHORIZED = { headers: { authorization: `Bearer ${BENCH_TOKEN}` } };

/**
 * Introspection answers: checked, cached by the token's hash for a while (never past exp), bounded;
 * refusals remembered for negativeCacheSeconds; copies of one token share a request; a failing
 * endpoint is left alone for the failure cooldown; at most maxInFlight requests at once.
 */
import { IntrospectionVerifier } from '../../../src/auth/introspection-verifier';
import { InvalidTokenError } from '../../../src/auth/token-verifier';

const options = {
  endpoint: 'https://as.example/introspect',
  clientId: 'rs',
  clientSecret: 's',
  timeoutMs: 1000,
  cacheSeconds: 30,
  maxCacheEntries: 2,
  negativeCacheSeconds: 10,
  maxInFlight: 4,
};
const expect_ = {
  resource: 'https://mcp.example/mcp',
  issuer: 'https://as.example',
  clockToleranceSeconds: 0,
  failureCooldownMs: 5000,
};

let answers: Array<Record<string, unknown>>;
let bodies: string[];
let now: number;
beforeEach(() => {
  answers = [];
  bodies = [];
  now = 1_000_000_000_000;
  jest.spyOn(globalThis, 'fetch').mockImplementation(async (_url, init) => {
    bodies.push(String(init?.body));
    return new Response(JSON.stringify(answers.shift() ?? { active: false }), { status: 200 });
  });
});
afterEach(() => jest.restoreAllMocks());

const verifier = (o: Partial<typeof options> = {}) =>
  new IntrospectionVerifier({ ...options, ...o }, expect_, () => now, () => 0);
const active = (extra: Record<string, unknown> = {}) => ({
  active: true,
  sub: 'ada',
  client_id: 'c',
  scope: 'a b',
  aud: expect_.resource,
  iss: expect_.issuer,
  exp: now / 1000 + 600,
  ...extra,
});

test('an active answer is cached for cacheSeconds, then asked again', async () => {
  const v = verifier();
  answers.push(active(), active());
  expect(await v.verify('tok')).toMatchObject({ subject: 'ada', clientId: 'c', scopes: ['a', 'b'] });
  await v.verify('tok');
  expect(bodies).toHaveLength(1);
  expect(bodies[0]).toContain('token=tok');
  now += 31_000;
  await v.verify('tok');
  expect(bodies).toHaveLength(2);
});

test('never cached past the token exp', async () => {
  const v = verifier();
  answers.push(active({ exp: now / 1000 + 5 }), active());
  await v.verify('tok');
  now += 6_000;
  await v.verify('tok');
  expect(bodies).toHaveLength(2);
});

test.each<[string, Record<string, unknown>]>([
  ['inactive', { active: false }],
  ['another audience', { aud: 'https://other.example' }],
  ['another issuer', { iss: 'https://evil.example' }],
  ['expired', { exp: 1 }],
  ['not yet valid', { nbf: 9_999_999_999 }],
  ['a refresh token', { token_type: 'refresh_token' }],
  ['issued in the future', { iat: 9_999_999_999 }],
  ['a numeric sub', { sub: 42 }],
  ['an empty sub', { sub: '' }],
])('%s is refused, remembered for negativeCacheSeconds, then asked again', async (_name, change) => {
  const v = verifier();
  answers.push({ ...active(), ...change });
  await expect(v.verify('tok')).rejects.toBeInstanceOf(InvalidTokenError);
  answers.push(active());
  await expect(v.verify('tok')).rejects.toBeInstanceOf(InvalidTokenError);
  expect(bodies).toHaveLength(1);
  now += 10_001;
  await expect(v.verify('tok')).resolves.toMatchObject({ subject: 'ada' });
  expect(bodies).toHaveLength(2);
});

test('negativeCacheSeconds 0 asks again at once', async () => {
  const v = verifier({ negativeCacheSeconds: 0 });
  answers.push({ active: false }, active());
  await expect(v.verify('tok')).rejects.toBeInstanceOf(InvalidTokenError);
  await expect(v.verify('tok')).resolves.toMatchObject({ subject: 'ada' });
});

test('parallel copies of one token share one request', async () => {
  const v = verifier();
  answers.push(active());
  const all = await Promise.all(Array.from({ length: 50 }, () => v.verify('same')));
  expect(all.every((t) => t.subject === 'ada')).toBe(true);
  expect(bodies).toHaveLength(1);
});

test('after a failure the endpoint is left alone for the cooldown (with jitter), then asked again', async () => {
  let calls = 0;
  jest.spyOn(globalThis, 'fetch').mockImplementation(async () => {
    calls++;
    if (calls === 1) return new Response('oops', { status: 500 });
    return new Response(JSON.stringify(active()), { status: 200 });
  });
  const v = verifier();
  for (let i = 0; i < 100; i++) await expect(v.verify(`junk-${i}`)).rejects.not.toBeInstanceOf(InvalidTokenError);
  expect(calls).toBe(1);
  now += 5001;
  await expect(v.verify('tok')).resolves.toMatchObject({ subject: 'ada' });
  expect(calls).toBe(2);
});

test('over maxInFlight a new token gets a dependency refusal, not a request', async () => {
  const release: Array<() => void> = [];
  jest.spyOn(globalThis, 'fetch').mockImplementation(
    () => new Promise<Response>((r) => release.push(() => r(new Response(JSON.stringify(active()), { status: 200 })))),
  );
  const v = verifier();
  const running = ['a', 'b', 'c', 'd'].map((t) => v.verify(t));
  await expect(v.verify('e')).rejects.not.toBeInstanceOf(InvalidTokenError);
  expect(release).toHaveLength(4);
  release.forEach((r) => r());
  await Promise.all(running);
  const e = v.verify('e');
  release[4]!();
  await expect(e).resolves.toMatchObject({ subject: 'ada' });
});

test('the cache holds at most maxCacheEntries', async () => {
  const v = verifier();
  for (const t of ['t1', 't2', 't3', 't1']) {
    answers.push(active());
    await v.verify(t);
  }
  expect(bodies).toHaveLength(4); // t1 was dropped when t3 came
});

test('an endpoint that fails is not a token refusal (the caller answers 503)', async () => {
  jest.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('oops', { status: 500 }));
  await expect(verifier().verify('tok')).rejects.not.toBeInstanceOf(InvalidTokenError);
});

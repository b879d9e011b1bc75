import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { CanonicalJsonError, createRequestStateCodec, type StateBinding } from '../../../src/state';
import { binding, codec, MODES, refusalOf, testKey } from './state-fixtures';

describe.each(MODES)('bindings in %s mode', (_mode, encrypt) => {
  const subject = codec({ encryptRequestState: encrypt });

  it('B3: refuses principal drift in both directions', async () => {
    const anonymous = subject.seal(1, binding({ principal: undefined }));
    const authenticated = subject.seal(1, binding({ principal: 'alice' }));
    await expect(refusalOf(subject.open(anonymous, binding({ principal: 'alice' })))).resolves.toBe('principal');
    await expect(refusalOf(subject.open(authenticated, binding({ principal: undefined })))).resolves.toBe('principal');
    await expect(refusalOf(subject.open(authenticated, binding({ principal: 'bob' })))).resolves.toBe('principal');
    await expect(refusalOf(subject.open(authenticated, binding({ principal: '' })))).resolves.toBe('principal');
    await expect(subject.open(anonymous, binding({ principal: undefined }))).resolves.toBeDefined();
    await expect(subject.open(authenticated, binding({ principal: 'alice' }))).resolves.toBeDefined();
  });

  it('B4: refuses another tool, the same name on another method, and resources/read', async () => {
    const token = subject.seal(1, binding({ method: 'tools/call', target: 'a' }));
    const others: StateBinding[] = [
      binding({ method: 'tools/call', target: 'b' }),
      binding({ method: 'prompts/get', target: 'a' }),
      binding({ method: 'resources/read', target: 'a' }),
    ];
    for (const other of others) await expect(refusalOf(subject.open(token, other))).resolves.toBe('binding');
  });

  it('B5: refuses a changed, added or removed argument', async () => {
    const params = { name: 'deploy', arguments: { env: 'prod', replicas: 3 } };
    const token = subject.seal(1, binding({ params }));
    const changed = [
      { name: 'deploy', arguments: { env: 'prod', replicas: 4 } },
      { name: 'deploy', arguments: { env: 'prod', replicas: '3' } },
      { name: 'deploy', arguments: { env: 'prod', replicas: 3, force: true } },
      { name: 'deploy', arguments: { env: 'prod' } },
      { name: 'deploy', arguments: { env: 'prod', replicas: 3, _meta: {} } }, // only top-level _meta is unbound
      { name: 'deploy' },
      { name: 'deploy', arguments: { env: 'prod', replicas: 3 }, task: { ttl: 1 } },
      undefined,
    ];
    for (const other of changed)
      await expect(refusalOf(subject.open(token, binding({ params: other })))).resolves.toBe('binding');
  });

  it('B6: accepts reordered keys, other whitespace, 1.0 for 1, changed _meta, inputResponses and requestState', async () => {
    const original = JSON.parse(
      '{"name":"deploy","arguments":{"env":"prod","replicas":3,"opts":{"a":1,"b":[1,2]}},"_meta":{"progressToken":1}}',
    ) as unknown;
    const token = subject.seal(1, binding({ params: original }));
    const variants = [
      '{ "arguments" : { "opts": {"b":[1, 2],"a":1.0}, "replicas": 3.0, "env": "prod" }, "name": "deploy" }',
      '{"name":"deploy","arguments":{"env":"\\u0070rod","replicas":3e0,"opts":{"a":10e-1,"b":[1,2]}}}',
      '{"_meta":{"progressToken":"other","io.modelcontextprotocol/clientInfo":{"name":"x"}},"name":"deploy","arguments":{"env":"prod","replicas":3,"opts":{"a":1,"b":[1,2]}}}',
      '{"name":"deploy","arguments":{"env":"prod","replicas":3,"opts":{"a":1,"b":[1,2]}},"inputResponses":{"q1":{"action":"accept"}},"requestState":"v1.xyz"}',
    ];
    for (const text of variants) {
      await expect(subject.open(token, binding({ params: JSON.parse(text) as unknown }))).resolves.toMatchObject({
        payload: 1,
      });
    }
  });

  it('B10: two services sharing a key refuse each other', async () => {
    const billing = codec({ encryptRequestState: encrypt, requestStateAudience: 'billing' });
    const shipping = codec({ encryptRequestState: encrypt, requestStateAudience: 'shipping' });
    expect(billing.fingerprint).toBe(shipping.fingerprint);
    await expect(refusalOf(shipping.open(billing.seal(1, binding()), binding()))).resolves.toBe('audience');
    await expect(refusalOf(billing.open(shipping.seal(1, binding()), binding()))).resolves.toBe('audience');
    await expect(billing.open(billing.seal(1, binding()), binding())).resolves.toBeDefined();
  });

  it('refuses another protocol revision', async () => {
    const token = subject.seal(1, binding({ revision: '2026-07-28' }));
    await expect(refusalOf(subject.open(token, binding({ revision: '2025-11-25' })))).resolves.toBe('revision');
  });

  it('B11: encodings are injective: "|" splits and lone surrogates never collide', async () => {
    const pairs: Array<[Partial<StateBinding>, Partial<StateBinding>]> = [
      [{ method: 'a|b', target: 'c' }, { method: 'a', target: 'b|c' }],
      [{ method: 'a', target: 'b\u0000c' }, { method: 'a\u0000b', target: 'c' }],
      [{ target: 'x\uDC00', params: {} }, { target: 'x\uDFFF', params: {} }],
      [{ principal: 'x\uDC00' }, { principal: 'x\uDFFF' }],
      [{ principal: 'a|b', revision: 'c' }, { principal: 'a', revision: 'b|c' }],
      [{ principal: '["a"]' }, { principal: 'a' }],
    ];
    for (const [left, right] of pairs) {
      const token = subject.seal(1, binding(left));
      await expect(subject.open(token, binding(left))).resolves.toBeDefined();
      await expect(refusalOf(subject.open(token, binding(right)))).resolves.toMatch(/binding|principal|revision/);
    }
  });
});

describe('B11: why strings are never hashed raw', () => {
  it('createHmac over raw strings collides for lone surrogates; our encodings do not', () => {
    const raw = (s: string) => createHmac('sha256', 'k').update(s).digest('hex');
    expect(raw('x\uDC00')).toBe(raw('x\uDFFF')); // the hazard (both become U+FFFD)
    expect(JSON.stringify('x\uDC00')).not.toBe(JSON.stringify('x\uDFFF'));
  });

  it('refuses params holding a lone surrogate at seal and at open', async () => {
    const subject = codec();
    expect(() => subject.seal(1, binding({ params: { name: 'x\uDC00' } }))).toThrow(CanonicalJsonError);
    const token = subject.seal(1, binding({ params: { name: 'x' } }));
    await expect(subject.open(token, binding({ params: { name: 'x\uDC00' } }))).rejects.toMatchObject({
      reason: 'binding',
      detail: 'params: lone_surrogate',
    });
  });
});

describe('A12: property round trip', () => {
  const json = fc.jsonValue({ maxDepth: 10 });
  const bindingArb: fc.Arbitrary<StateBinding> = fc.record(
    {
      method: fc.constantFrom('tools/call', 'prompts/get', 'resources/read'),
      target: fc.string({ maxLength: 20 }),
      principal: fc.option(fc.string({ maxLength: 12 }), { nil: undefined }),
      revision: fc.constantFrom('2026-07-28', '2025-11-25'),
      params: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }),
    },
    { requiredKeys: ['method', 'target', 'revision', 'params'] },
  );

  it.each(MODES)('open(seal(p, b), b) returns p (%s mode, 10 000 runs)', async (_mode, encrypt) => {
    const subject = createRequestStateCodec({
      requestStateKey: testKey('pbt'),
      encryptRequestState: encrypt,
      maxRequestStateBytes: 1_000_000,
    });
    await fc.assert(
      fc.asyncProperty(json, bindingArb, async (payload, bound) => {
        const opened = await subject.open(subject.seal(payload, bound), bound);
        // JSON semantics: -0 is written as 0, exactly as JSON.stringify does.
        expect(opened.payload).toEqual(JSON.parse(JSON.stringify(payload)));
      }),
      { numRuns: 10_000 },
    );
  });

  it('refuses any change to any bound field (2 000 runs)', async () => {
    const subject = createRequestStateCodec({ requestStateKey: testKey('pbt'), maxRequestStateBytes: 1_000_000 });
    const field = fc.constantFrom('method', 'target', 'principal', 'revision', 'params');
    await fc.assert(
      fc.asyncProperty(bindingArb, field, fc.string({ minLength: 1, maxLength: 5 }), async (bound, which, suffix) => {
        const token = subject.seal({ n: 1 }, bound);
        const changed: StateBinding = { ...bound };
        if (which === 'params') changed.params = { ...(bound.params as object), [`__changed_${suffix}`]: suffix };
        else if (which === 'principal') changed.principal = bound.principal === undefined ? suffix : undefined;
        else changed[which] = bound[which] + suffix;
        const reason = await refusalOf(subject.open(token, changed));
        expect(reason).toBe(which === 'principal' || which === 'revision' ? which : 'binding');
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('paramsDigestKnown (a returning round of a token minted here)', () => {
  // The real module, so its digest matches what paramsDigestOnce gives.
  const bindingModule = jest.requireActual<typeof import('../../../src/state/binding')>('../../../src/state/binding');
  const { digestedParams, paramsDigestKnown, paramsDigestOnce } = bindingModule;
  /** A fresh object: the digest is remembered per object. */
  const copy = (value: unknown): unknown => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

  it('gives the claimed digest to params with the known canonical text, without hashing them', () => {
    const known = digestedParams({ name: 't', arguments: { a: 1 } }).text;
    // A made-up claim shows the comparison answered, not a hash.
    expect(paramsDigestKnown({ arguments: { a: 1 }, name: 't', _meta: { x: 1 } }, 'made-up', known)).toBe('made-up');
  });

  it('hashes params with any other text, as paramsDigestOnce would', () => {
    const known = digestedParams({ name: 't', arguments: { a: 1 } }).text;
    const others = [{ name: 't', arguments: { a: 2 } }, { name: 't', arguments: {} }, { name: 't' }, null, undefined];
    for (const params of others) {
      expect(paramsDigestKnown(params, 'made-up', known)).toBe(paramsDigestOnce(copy(params)));
    }
    // A text that is a prefix of the known one, or extends it, is another text.
    const longer = { name: 't', arguments: { a: 1, b: 2 } };
    expect(paramsDigestKnown(longer, 'made-up', known)).toBe(paramsDigestOnce(copy(longer)));
    expect(paramsDigestKnown({ name: 't', arguments: { a: 1 } }, 'made-up', `${known} `)).not.toBe('made-up');
  });
});

/**
 * The 2026 reply's JSON text made from parts (issue 34, replies/reply-text.ts): wherever the server
 * hands a text to the transport, it is byte for byte JSON.stringify of the message it goes with —
 * over unusual ids, strings that need escaping (quotes, control characters, non-ASCII, lone
 * surrogates), several asks, integer-like and `__proto__` keys, handler bodies with their own
 * `_meta`, `toJSON` or values JSON cannot hold — and a shape it does not recognise gets no text.
 */
import { IsInt, IsString } from 'class-validator';
import { randomBytes } from 'node:crypto';
import { Context, InputRequired, InputRequests, Tool } from '../../../../src';
import { jsonString, successJson, withLastKey } from '../../../../src/protocol/json-text';
import type { JsonObject, JsonRpcRequest, RequestId } from '../../../../src/protocol/jsonrpc';
import type { RequestIO } from '../../../../src/server/request/request-io';
import { modernReply } from '../../../../src/server/replies/result-envelope';
import { inputRequiredJson, serverMetaOf } from '../../../../src/server/replies/reply-text';
import type { ServerCore } from '../../../../src/server/core/server-core';
import type { Reply } from '../../../../src/server/server-endpoint';
import { makeApp } from '../../../helpers/apps';

/** Strings JSON.stringify escapes, and some it does not. */
const AWKWARD = [
  '',
  'plain',
  'say "hi"',
  'back\\slash',
  'tab\there\nnewline\r\u0000\u001f',
  '\u007f delete',
  'grüße, 日本語, emoji 😀',
  'lone \ud800 high',
  'lone \udc00 low',
  'reversed \udc00\ud800',
  '\u2028\u2029 separators',
  '</script>',
  'x'.repeat(2000),
];

function reply(r: Reply | unknown): Reply {
  const answer = r as Reply;
  expect(answer.kind).toBe('reply');
  return answer;
}

/** The text, when there is one, is exactly the message's JSON. */
function expectExact(r: Reply, made = true): void {
  if (made) expect(r.json).toBeDefined();
  if (r.json !== undefined) expect(r.json).toBe(JSON.stringify(r.message));
}

describe('the text helpers equal JSON.stringify', () => {
  test('jsonString, over awkward and random strings', () => {
    for (const s of AWKWARD) expect(jsonString(s)).toBe(JSON.stringify(s));
    const pool = ['a', 'Z', '0', ' ', '"', '\\', '/', '\u0001', '\n', '\u007f', 'é', '\ud83d', '\ude00', '\u2028', '~'];
    for (let i = 0; i < 2000; i++) {
      let s = '';
      for (let n = i % 17; n > 0; n--) s += pool[(i * 7 + n * 13) % pool.length];
      expect(jsonString(s)).toBe(JSON.stringify(s));
    }
  });

  test('successJson, over string and number ids', () => {
    const ids: unknown[] = [0, -0, 1, -7, 1.5, 1e21, 1e-7, 2 ** 53 + 2, Number.MAX_VALUE, NaN, Infinity, ...AWKWARD];
    for (const id of ids) {
      const result = { a: 1 };
      expect(successJson(id as RequestId, JSON.stringify(result))).toBe(
        JSON.stringify({ jsonrpc: '2.0', id, result }),
      );
    }
    expect(successJson(null as unknown as RequestId, '{}')).toBeUndefined();
    expect(successJson({} as unknown as RequestId, '{}')).toBeUndefined();
  });

  test('withLastKey, on empty and filled objects', () => {
    for (const o of [{}, { a: 1 }, { '2': 'x', b: [1, { c: null }] }] as JsonObject[]) {
      const before = JSON.stringify(o);
      expect(withLastKey(before, '"_meta"', '{"k":"v"}')).toBe(JSON.stringify({ ...o, _meta: { k: 'v' } }));
    }
  });
});

describe('modernReply over handler bodies', () => {
  const core = {
    options: { listCache: { ttlMs: 1000, cacheScope: 'public' }, readCache: { ttlMs: 5, cacheScope: 'public' } },
    registry: { resource: () => undefined, matchTemplate: () => undefined },
  } as unknown as ServerCore;
  const meta = serverMetaOf({ name: 'srv "quoted"', version: '1.0.0', title: 'Grüße \ud800' } as never);
  const call = (id: RequestId, method = 'tools/call'): JsonRpcRequest => ({ jsonrpc: '2.0', id, method, params: {} });
  const ids: RequestId[] = [1, 0, -0, 2 ** 31, 3.25, 'abc', 'quo"te', '\ud800', ''];

  test('a tools/call result gets its text, equal to JSON.stringify', () => {
    const bodies: JsonObject[] = [
      { content: [{ type: 'text', text: 'hello' }] },
      {},
      { content: [], structuredContent: { when: new Date(0), n: 1.5, nothing: null, gone: undefined } },
      { resultType: 'task', content: [] }, // the framework's resultType wins, in the body's place
      { '2': 'two', '1': 'one', z: 'zed' },
      JSON.parse('{"__proto__":{"x":1},"content":[]}') as JsonObject,
      { content: AWKWARD.map((text) => ({ type: 'text', text })) },
      { isError: true, content: [{ type: 'text', text: 'boom' }] },
    ];
    for (const id of ids) for (const body of bodies) expectExact(modernReply(core, call(id), body, meta));
  });

  test('what it cannot vouch for is left to the transport', () => {
    const own: JsonObject = { content: [], _meta: { mine: 1 } };
    const ownUndefined: JsonObject = { _meta: undefined, content: [] };
    const toJSON: JsonObject = { content: [], toJSON: () => ({ replaced: true }) };
    const big: JsonObject = { n: 10n };
    const cyclic: JsonObject = { content: [] };
    cyclic.self = cyclic;
    for (const body of [own, ownUndefined, toJSON]) {
      const r = modernReply(core, call(1), body, meta);
      expect(r.json).toBeUndefined();
      expect((r.message as { result: JsonObject }).result._meta).toMatchObject(meta.value);
    }
    for (const body of [big, cyclic]) {
      const r = modernReply(core, call(1), body, meta);
      expect(r.json).toBeUndefined();
      expect(() => JSON.stringify(r.message)).toThrow(); // as before: the transport's stringify throws
    }
    // A cacheable result carries hints after `_meta`: no text.
    expect(modernReply(core, call(1, 'tools/list'), { tools: [] }, meta).json).toBeUndefined();
    // An id the decoder would not pass.
    expect(modernReply(core, call(null as unknown as RequestId), { content: [] }, meta).json).toBeUndefined();
  });

  test('an input_required result of another shape gets no text', () => {
    const shapes: JsonObject[] = [
      { resultType: 'input_required', requestState: 'v1.x', extra: 1 },
      { requestState: 'v1.x', resultType: 'input_required' },
      { resultType: 'input_required', requestState: 7 },
      { resultType: 'input_required', inputRequests: undefined, requestState: 'v1.x' },
    ];
    for (const result of shapes) {
      const r = modernReply(core, call(1), { kind: 'input_required', result }, meta);
      expect(r.json).toBeUndefined();
    }
    // Keys it expects, but `_meta` not the server's: no text either.
    expect(
      inputRequiredJson({ resultType: 'input_required', requestState: 'v1.x', _meta: {} }, undefined, meta),
    ).toBeUndefined();
  });
});

class Person {
  @IsString() name!: string;
  @IsInt() age!: number;
}

class Asking {
  @Tool({ description: 'confirms with an awkward message' })
  async confirmIt(ctx: Context) {
    return (await ctx.confirm('say "hi" \\ \ud800 😀\n', { key: 'ok' })) ? 'yes' : 'no';
  }
  @Tool({ description: 'a form', forms: [Person] })
  async form(ctx: Context) {
    const r = await ctx.elicit(Person, 'Who are "you"? \ud800', { key: 'who' });
    return r.action;
  }
  @Tool({ description: 'several asks at once, keys in an order objects reorder' })
  async several(ctx: Context) {
    const [a, b, c, d] = await Promise.all([
      ctx.confirm('z?', { key: 'z' }),
      ctx.sample('write "a" poem', { key: '2' }),
      ctx.listRoots({ key: '1' }),
      ctx.elicitUrl('https://example.test/a?b="c"', 'open it', { key: 'a' }),
    ]);
    return JSON.stringify([a, b, c, d]);
  }
  @Tool({ description: 'an ask keyed __proto__' })
  async proto(ctx: Context) {
    return String(await ctx.confirm('proto?', { key: '__proto__' }));
  }
  @Tool({ description: 'sampling with includeContext' })
  async sampleContext(ctx: Context) {
    const messages = [{ role: 'user' as const, content: { type: 'text' as const, text: 'hi' } }];
    const r = await ctx.sample({ messages, includeContext: 'thisServer' });
    return r.model;
  }
  @Tool({ description: 'a pause: no requests' })
  async paused(ctx: Context) {
    await ctx.pause('p');
    return 'after';
  }
  @Tool({ description: 'the low-level path' })
  lowLevel() {
    throw new InputRequired({
      inputRequests: { q: InputRequests.confirm('low "level"?'), r: InputRequests.listRoots() },
      requestState: 'handler state "quoted"',
    });
  }
}

describe('the replies of real flows', () => {
  const app = makeApp([Asking], { requestStateKey: randomBytes(32) });
  const aes = makeApp([Asking], { requestStateKey: randomBytes(32), encryptRequestState: true });
  const io = (): RequestIO => ({ signal: new AbortController().signal, notify: () => undefined });
  const caps = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };
  let id = 0;
  const call = async (a: typeof app, name: string, extra: JsonObject = {}, capabilities: JsonObject = caps) =>
    reply(
      await a.endpoint.dispatchModern(
        {
          jsonrpc: '2.0',
          id: id++ % 2 ? id : `id-${id} "q"`,
          method: 'tools/call',
          params: {
            name,
            arguments: {},
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': capabilities,
              'io.modelcontextprotocol/clientInfo': { name: 't', version: '0' },
            },
            ...extra,
          },
        },
        io(),
      ),
    );
  const resultOf = (r: Reply) => (r.message as { result: JsonObject }).result;

  test.each([
    ['HMAC', app],
    ['AES-GCM', aes],
  ])('%s: every input_required and complete reply has its exact text', async (_mode, a) => {
    for (const name of ['confirmIt', 'form', 'several', 'proto', 'sampleContext', 'paused', 'lowLevel']) {
      const first = await call(a, name);
      expect(resultOf(first).resultType).toBe('input_required');
      expectExact(first);
      expect(resultOf(first).requestState).toMatch(/^v1e?\.[A-Za-z0-9_-]+$/);
    }
    // includeContext goes only to a client that declared sampling.context: with it, and trimmed without.
    expectExact(await call(a, 'sampleContext', {}, { ...caps, sampling: { context: {} } }));
  });

  test('a retry that completes, and a re-ask whose reworded request is stringified', async () => {
    const first = await call(app, 'form');
    const reask = await call(app, 'form', {
      requestState: resultOf(first).requestState,
      inputResponses: { who: { action: 'accept', content: { name: 'x', age: 'not a number' } } },
    });
    expect(JSON.stringify(resultOf(reask).inputRequests)).toContain('was not accepted');
    expectExact(reask);
    const done = await call(app, 'form', {
      requestState: resultOf(reask).requestState,
      inputResponses: { who: { action: 'decline' } },
    });
    expect(resultOf(done)).toMatchObject({ resultType: 'complete', content: [{ text: 'decline' }] });
    expectExact(done);
    const paused = await call(app, 'paused');
    const after = await call(app, 'paused', { requestState: resultOf(paused).requestState });
    expect(resultOf(after)).toMatchObject({ resultType: 'complete', content: [{ text: 'after' }] });
    expectExact(after);
  });

  test('an ask keyed __proto__ is sent under that key, and its answer completes the call', async () => {
    const first = await call(app, 'proto');
    const text = JSON.stringify(resultOf(first));
    expect(text).toContain('"inputRequests":{"__proto__":{"method":"elicitation/create"');
    const answers = JSON.parse('{"__proto__":{"action":"accept","content":{"confirm":true}}}') as JsonObject;
    const done = await call(app, 'proto', { requestState: resultOf(first).requestState, inputResponses: answers });
    expect(resultOf(done)).toMatchObject({ resultType: 'complete', content: [{ text: 'true' }] });
  });

  test('every awkward confirmation message', async () => {
    for (const text of AWKWARD) {
      class One {
        @Tool({ description: 'one confirmation' })
        async one(ctx: Context) {
          return String(await ctx.confirm(text, { key: 'k' }));
        }
      }
      const r = await call(makeApp([One], { requestStateKey: randomBytes(32) }), 'one');
      expectExact(r);
      expect(JSON.parse(r.json!).result.inputRequests.k.params.message).toBe(text);
    }
  });

  test('an error reply and a list are left to the transport', async () => {
    expect((await call(app, 'nope')).json).toBeUndefined();
    const list = reply(
      await app.endpoint.dispatchModern(
        {
          jsonrpc: '2.0',
          id: 9,
          method: 'tools/list',
          params: {
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': {},
              'io.modelcontextprotocol/clientInfo': { name: 't', version: '0' },
            },
          },
        },
        io(),
      ),
    );
    expect(list.json).toBeUndefined();
  });
});

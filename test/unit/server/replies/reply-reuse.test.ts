/**
 * A flow's replies reuse texts the round already made (issue 34): a completing round stringifies its
 * result once, for the flow store's record and the reply alike; the input_required reply puts a token of
 * this library's codec between quotes without scanning it, and checks any other sealer's token.
 */
import { randomBytes } from 'node:crypto';
import { Context, Tool } from '../../../../src';
import type { JsonObject, JsonRpcRequest } from '../../../../src/protocol/jsonrpc';
import type { RequestIO } from '../../../../src/server/request/request-io';
import { modernReply } from '../../../../src/server/replies/result-envelope';
import { resultJson, serverMetaOf, textResultJson } from '../../../../src/server/replies/reply-text';
import type { ServerCore } from '../../../../src/server/core/server-core';
import type { Reply } from '../../../../src/server/server-endpoint';
import { createRequestStateCodec, MemoryFlowStore, sealsPlainTokens } from '../../../../src/state';
import { makeApp } from '../../../helpers/apps';

class Asking {
  @Tool({ description: 'confirms, then answers (a result that is not one bare text block: it is stringified)' })
  async confirmIt(ctx: Context) {
    const text = String(await ctx.confirm('sure?', { key: 'ok' }));
    return { content: [{ type: 'text' as const, text }], isError: false };
  }
}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
  'io.modelcontextprotocol/clientInfo': { name: 't', version: '0' },
};
const io = (): RequestIO => ({ signal: new AbortController().signal, notify: () => undefined });

function setUp() {
  const flows = new MemoryFlowStore();
  const app = makeApp([Asking], { requestStateKey: randomBytes(32), flowStore: flows });
  let id = 0;
  const call = async (extra: JsonObject = {}) =>
    (await app.endpoint.dispatchModern(
      {
        jsonrpc: '2.0',
        id: ++id,
        method: 'tools/call',
        params: { name: 'confirmIt', arguments: {}, _meta: META, ...extra },
      },
      io(),
    )) as Reply;
  return { flows, call };
}
const resultOf = (r: Reply) => (r.message as { result: JsonObject }).result;

afterEach(() => jest.restoreAllMocks());

test('a completing round stringifies its result once: the store keeps that text and the reply reuses it', async () => {
  const { flows, call } = setUp();
  const first = await call();
  const stringify = jest.spyOn(JSON, 'stringify');
  const done = await call({
    requestState: resultOf(first).requestState,
    inputResponses: { ok: { action: 'accept', content: { confirm: true } } },
  });
  const ofResult = stringify.mock.calls.filter(([v]) => hasTextContent(v, 'true'));
  stringify.mockRestore();
  expect(ofResult).toHaveLength(1);
  expect(done.json).toBe(JSON.stringify(done.message));
  expect(resultOf(done)).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'true' }] });
  // The store's record is that result: a retry of the same round gets it, nothing runs again.
  const flowId = (flows as unknown as { flows: Map<string, unknown> }).flows.keys().next().value as string;
  expect(await flows.claim(flowId, 'another', Date.now() + 60_000, 60_000)).toEqual({
    kind: 'completed',
    result: { content: [{ type: 'text', text: 'true' }], isError: false },
  });
});

function hasTextContent(v: unknown, text: string): boolean {
  const content = (v as { content?: { text?: unknown }[] } | null)?.content;
  return Array.isArray(content) && content[0]?.text === text;
}

test('a token of this library\'s codec is not scanned; any other sealer is not trusted', async () => {
  const codec = createRequestStateCodec({ requestStateKey: randomBytes(32) });
  expect(sealsPlainTokens(codec)).toBe(true);
  expect(sealsPlainTokens({ ...codec })).toBe(false);
  expect(sealsPlainTokens(Object.freeze({ seal: codec.seal, open: codec.open }))).toBe(false);

  const { call } = setUp();
  const test = jest.spyOn(RegExp.prototype, 'test');
  const first = await call();
  const token = resultOf(first).requestState as string;
  const scanned = test.mock.calls.filter(([s]) => s === token);
  test.mockRestore();
  expect(token).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
  expect(scanned).toHaveLength(0);
  expect(first.json).toBe(JSON.stringify(first.message));

  // A sealer not known to write plain tokens: its token is escaped as JSON.stringify would.
  const core = { options: {}, registry: {} } as unknown as ServerCore;
  const meta = serverMetaOf({ name: 's', version: '1' });
  const req: JsonRpcRequest = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} };
  const result = { resultType: 'input_required', requestState: 'odd "token" \\ \u0001' };
  const r = modernReply(core, req, { kind: 'input_required', result }, meta);
  expect(r.json).toBe(JSON.stringify(r.message));
});

describe('a one-text-block result is written from its parts', () => {
  const AWKWARD = ['', 'hello', 'say "hi"', 'back\\slash', 'tab\t\n\u0000', 'grüße 😀', 'lone \ud800', '\u2028'];

  test('equal to JSON.stringify for any text; any other shape is left to JSON.stringify', () => {
    for (const text of [...AWKWARD, 'x'.repeat(5000)]) {
      const body = { content: [{ type: 'text', text }] };
      expect(textResultJson(body)).toBe(JSON.stringify(body));
      expect(resultJson(body)).toBe(JSON.stringify(body));
    }
    const getter = { content: [{ type: 'text', get text() { return 'got'; } }] };
    expect(textResultJson(getter)).toBe(JSON.stringify(getter));
    const others: unknown[] = [
      { content: [{ text: 'x', type: 'text' }] }, // another key order
      { content: [{ type: 'text', text: 'x', annotations: { priority: 1 } }] },
      { content: [{ type: 'text', text: 'x' }], isError: true },
      { content: [{ type: 'text', text: 'x' }, { type: 'text', text: 'y' }] },
      { content: [{ type: 'image', text: 'x' }] },
      { content: [{ type: 'text', text: 7 }] },
      { content: [{ type: 'text', text: 'x', toJSON: () => 'replaced' }] },
      { content: Object.assign([{ type: 'text', text: 'x' }], { toJSON: () => [] }) },
      { content: [] },
      { content: 'x' },
      'x',
      null,
    ];
    for (const body of others) {
      expect(textResultJson(body)).toBeUndefined();
      if (typeof body === 'object' && body !== null) expect(resultJson(body)).toBe(JSON.stringify(body));
    }
  });

  test('a plain call returning a string is answered without JSON.stringify of its result', async () => {
    class Texts {
      @Tool({ description: 'a fixed text' })
      fixed() {
        return 'This is a "simple" text';
      }
    }
    const app = makeApp([Texts]);
    const stringify = jest.spyOn(JSON, 'stringify');
    const r = (await app.endpoint.dispatchModern(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'fixed', arguments: {}, _meta: META } },
      io(),
    )) as Reply;
    const ofResult = stringify.mock.calls.filter(([v]) => hasTextContent(v, 'This is a "simple" text'));
    stringify.mockRestore();
    expect(ofResult).toHaveLength(0);
    expect(r.json).toBe(JSON.stringify(r.message));
    expect(resultOf(r)).toMatchObject({ resultType: 'complete', content: [{ text: 'This is a "simple" text' }] });
  });
});

test('several asks: their requests JSON follows the object\'s own key order, integer-like keys first', async () => {
  for (const keys of [['zeta', 'alpha', '__proto__'], ['b', '10', '2', 'a'], ['1a', '01', 'x', '7']]) {
    class Several {
      @Tool({ description: 'several confirmations at once' })
      async several(ctx: Context) {
        const answers = await Promise.all(keys.map((key) => ctx.confirm(`${key}?`, { key })));
        return answers.join(',');
      }
    }
    const app = makeApp([Several], { requestStateKey: randomBytes(32) });
    const r = (await app.endpoint.dispatchModern(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'several', arguments: {}, _meta: META } },
      io(),
    )) as Reply;
    expect(r.json).toBe(JSON.stringify(r.message));
    expect(Object.keys(JSON.parse(r.json!).result.inputRequests)).toEqual(
      Object.keys(Object.fromEntries(keys.map((k) => [k, 1]))),
    );
  }
});

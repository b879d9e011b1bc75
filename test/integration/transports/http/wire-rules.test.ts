/**
 * Wire rules beyond the conformance suite (issue 11), on real HTTP under both eras: statuses
 * follow codes whoever raised them, handler codes are vetted, resultType is the framework's,
 * methods are own keys only, unknown ids follow each revision's schema, legacy sessions keep
 * errors in band, check their revision header and stay silent after a cancel.
 */
import { IsString } from 'class-validator';
import { Context, ContextServerModule, McpApplication, ProtocolError, Prompt, Resource, Tool } from '../../../../src';
import { serveHttp, type HttpServerHandle } from '../../../../src/transports/http';
import type { ServerLogger } from '../../../../src/server/core/server-logger';
import {
  JSON_HEADERS,
  MODERN,
  modernMeta,
  modernPost,
  RawLegacyClient,
  rawRequest,
  replyOf,
  streamingRequest,
  trackProcessFaults,
  waitFor,
} from '../../../helpers/http-fixtures';

class CodeArgs {
  @IsString() code!: string;
}

const logged: string[] = [];
const logger: ServerLogger = { warn: (m) => logged.push(m), error: (m) => logged.push(m) };
let cancelledRuns = 0;

class WireTools {
  @Tool({ description: 'Throws a ProtocolError with the code asked for' })
  throwCode(args: CodeArgs): string {
    const code = Number(args.code);
    const data = code === -32021 ? { requiredCapabilities: { sampling: {} } } : undefined;
    throw new ProtocolError(code, `thrown ${args.code}`, data);
  }
  @Tool({ description: 'Needs the user to visit a URL first (2025-11-25)' })
  needsUrl(): string {
    throw ProtocolError.urlElicitationRequired([
      { url: 'https://example.com/auth', message: 'Sign in', elicitationId: 'e1' },
    ]);
  }
  @Tool({ description: 'Tries to set resultType itself' })
  sneaky() {
    return { content: [{ type: 'text', text: 'hi' }], resultType: 'input_required', requestState: 'forged' };
  }
  @Tool({ description: 'Takes no arguments' })
  plain() {
    return 'plain';
  }
  @Tool({ description: 'Runs until cancelled, then tries to talk' })
  async linger(_a: CodeArgs, ctx: Context) {
    await ctx.progress(1, 2, 'started');
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
    cancelledRuns++;
    await ctx.progress(2, 2, 'after cancel');
    return 'never seen';
  }
  @Prompt({ description: 'A prompt' })
  hello() {
    return 'hello';
  }
  @Resource({ uri: 'wire://missing', description: 'Says not found with the legacy code' })
  missing(): string {
    throw new ProtocolError(-32002, 'gone', { uri: 'wire://missing' });
  }
}

let server: HttpServerHandle;
const faults = trackProcessFaults();

beforeAll(async () => {
  const app = McpApplication.create({
    name: 'wire-rules',
    version: '1.0.0',
    providers: [WireTools],
    modules: [ContextServerModule.configure({ logger })],
  });
  server = await serveHttp(app, { port: 0 });
});
afterAll(async () => {
  await server.close({ deadlineMs: 2000 });
  faults.stop();
  expect(faults.faults).toEqual([]);
});

const call = (id: number, name: string, args?: unknown) =>
  modernPost(server.url, id, 'tools/call', { name, arguments: args as never });

async function legacySession(version = '2025-11-25'): Promise<RawLegacyClient> {
  const c = new RawLegacyClient(server.url, version);
  const init = await c.initialize({ elicitation: {} });
  expect(init.status).toBe(200);
  return c;
}

test('server/discover declares logging (ctx.log can emit notifications/message)', async () => {
  const d = (await modernPost(server.url, 1, 'server/discover')).json();
  expect(d.result.capabilities.logging).toEqual({});
});

describe('a _meta revision claim must match MCP-Protocol-Version, whatever the two values', () => {
  const post = (claim: string, header?: string) =>
    rawRequest(server.url, {
      headers: { ...JSON_HEADERS, 'Mcp-Method': 'tools/list', ...(header ? { 'MCP-Protocol-Version': header } : {}) },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/list',
        params: { _meta: modernMeta({ 'io.modelcontextprotocol/protocolVersion': claim }) },
      }),
    });
  test.each([
    ['2025-11-25', MODERN],
    ['2025-11-25', undefined],
    [MODERN, '2025-11-25'],
    [MODERN, undefined],
    ['2025-06-18', '2025-11-25'],
  ])('claim %s with header %s → 400 / -32020', async (claim, header) => {
    const r = await post(claim, header);
    expect(r.status).toBe(400);
    expect(r.json()).toMatchObject({ id: 7, error: { code: -32020 } });
  });
});

describe('HTTP status follows the code, also when a handler throws it', () => {
  test('-32021 thrown by a handler is 400 on 2026, in band on a legacy session', async () => {
    const r = await call(2, 'throwCode', { code: '-32021' });
    expect(r.status).toBe(400);
    expect(r.json().error).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
    const legacy = await legacySession();
    const l = await legacy.call(3, 'tools/call', { name: 'throwCode', arguments: { code: '-32021' } });
    expect(l.status).toBe(200);
    expect(replyOf(l).error.code).toBe(-32021);
  });

  test.each(['-32020', '-32022', '-32042', '-32050', '-32099', '-32601', '-32700', '-32600', '-32768'])(
    'a reserved code %s thrown by a handler is sent as -32603 and logged',
    async (code) => {
      logged.length = 0;
      const r = await call(4, 'throwCode', { code });
      expect(r.status).toBe(200);
      expect(r.json().error).toEqual({ code: -32603, message: 'Internal error' });
      expect(logged.join('\n')).toContain(`code ${code}`);
    },
  );

  test.each([
    ['-32001', -32001],
    ['4001', 4001],
    ['-1', -1],
    ['-32602', -32602],
  ])('an application code %s passes through', async (code, expected) => {
    const r = await call(5, 'throwCode', { code });
    expect(r.status).toBe(200);
    expect(r.json().error.code).toBe(expected);
  });

  test('-32002 (legacy resource not found) becomes -32602 on 2026 and stays on 2025-11-25', async () => {
    const r = await modernPost(server.url, 6, 'resources/read', { uri: 'wire://missing' });
    expect(r.json().error).toMatchObject({ code: -32602, data: { uri: 'wire://missing' } });
    const legacy = await legacySession();
    expect(replyOf(await legacy.call(7, 'resources/read', { uri: 'wire://missing' })).error.code).toBe(-32002);
  });
});

test('-32042 from ProtocolError.urlElicitationRequired reaches 2025-11-25 only', async () => {
  const v1125 = await legacySession('2025-11-25');
  expect(replyOf(await v1125.call(30, 'tools/call', { name: 'needsUrl', arguments: {} })).error).toEqual({
    code: -32042,
    message: 'This request requires more information.',
    data: { elicitations: [{ mode: 'url', url: 'https://example.com/auth', message: 'Sign in', elicitationId: 'e1' }] },
  });
  const v0618 = await legacySession('2025-06-18');
  expect(replyOf(await v0618.call(31, 'tools/call', { name: 'needsUrl', arguments: {} })).error.code).toBe(-32603);
  expect((await call(32, 'needsUrl', {})).json().error.code).toBe(-32603);
});

test('a handler cannot set resultType: 2026 says complete, legacy has none', async () => {
  const r = (await call(8, 'sneaky')).json();
  expect(r.result.resultType).toBe('complete');
  const legacy = await legacySession();
  const l = replyOf(await legacy.call(9, 'tools/call', { name: 'sneaky', arguments: {} }));
  expect(l.result.content[0].text).toBe('hi');
  expect(l.result).not.toHaveProperty('resultType');
});

describe('non-object arguments are -32602, not a tool error', () => {
  test.each([[[]], ['text'], [5], [null], [true]])('tools/call arguments %p', async (args) => {
    const r = await call(10, 'plain', args);
    expect(r.status).toBe(200);
    expect(r.json().error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('arguments must be an object'),
    });
  });
  test('prompts/get arguments [] on both eras', async () => {
    const r = await modernPost(server.url, 11, 'prompts/get', { name: 'hello', arguments: [] });
    expect(r.json().error.code).toBe(-32602);
    const legacy = await legacySession();
    expect(replyOf(await legacy.call(12, 'prompts/get', { name: 'hello', arguments: [] })).error.code).toBe(-32602);
  });
});

describe('methods are dispatched by own keys only', () => {
  const names = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', '__defineGetter__'];
  test.each(names)('2026 %s → 404 / -32601', async (method) => {
    const r = await modernPost(server.url, 13, method);
    expect(r.status).toBe(404);
    expect(r.json().error.code).toBe(-32601);
  });
  test.each(names)('legacy session %s → 200 / -32601 in band', async (method) => {
    const legacy = await legacySession();
    const r = await legacy.call(14, method);
    expect(r.status).toBe(200);
    expect(replyOf(r).error.code).toBe(-32601);
  });
  test('a tool named like an Object.prototype member is unknown', async () => {
    expect((await call(15, 'constructor', {})).json().error.code).toBe(-32602);
  });
});

describe('errors for an unknown request id follow each revision schema', () => {
  const garbage = (headers: Record<string, string>) =>
    rawRequest(server.url, { headers: { ...JSON_HEADERS, ...headers }, body: '{not json' });
  test('2026-07-28 and 2025-11-25 leave id out', async () => {
    for (const v of [MODERN, '2025-11-25']) {
      const r = await garbage({ 'MCP-Protocol-Version': v });
      expect(r.status).toBe(400);
      expect(r.json()).not.toHaveProperty('id');
      expect(r.json().error.code).toBe(-32700);
    }
  });
  test('2025-06-18, 2025-03-26 and no header say id null', async () => {
    const headers: Array<Record<string, string>> = [
      { 'MCP-Protocol-Version': '2025-06-18' },
      { 'MCP-Protocol-Version': '2025-03-26' },
      {},
    ];
    for (const h of headers) {
      const r = await garbage(h);
      expect(r.json()).toMatchObject({ id: null, error: { code: -32700 } });
    }
  });
});

describe('legacy sessions', () => {
  test('method not found is 200 with the error in band (404 means the session is gone)', async () => {
    const legacy = await legacySession();
    const r = await legacy.call(16, 'no/such/method');
    expect(r.status).toBe(200);
    expect(replyOf(r)).toMatchObject({ id: 16, error: { code: -32601 } });
  });

  test('a session request with an invalid or other MCP-Protocol-Version is 400; the session still serves', async () => {
    const legacy = await legacySession('2025-11-25');
    // A 2026 header without the 2026 envelope is refused by the 2026 ladder instead (-32020).
    for (const bad of ['banana', '2099-01-01', '2025-06-18', '2025-03-26']) {
      const r = await rawRequest(server.url, {
        headers: { ...legacy.headers(), 'MCP-Protocol-Version': bad },
        body: JSON.stringify({ jsonrpc: '2.0', id: 17, method: 'tools/list' }),
      });
      expect(r.status).toBe(400);
      // A date past 2026-07-28 reads as a 2026 request without its envelope: the 2026 ladder refuses it.
      expect(r.json()).toMatchObject({ id: 17, error: { code: bad === '2099-01-01' ? -32020 : -32600 } });
    }
    const ok = await legacy.call(18, 'tools/list');
    expect(ok.status).toBe(200);
    expect(replyOf(ok).result.tools.length).toBeGreaterThan(0);
  });

  test('after the client cancels a request, nothing more is sent for it', async () => {
    const legacy = await legacySession();
    const before = cancelledRuns;
    let sentCancel = false;
    const done = streamingRequest(
      server.url,
      {
        headers: legacy.headers(),
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 19,
          method: 'tools/call',
          params: { name: 'linger', arguments: { code: 'x' }, _meta: { progressToken: 'p' } },
        }),
      },
      (event) => {
        if (event.method === 'notifications/progress' && !sentCancel) {
          sentCancel = true;
          void legacy.post({
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: { requestId: 19, reason: 'user' },
          });
        }
      },
    );
    const r = await done;
    await waitFor(() => cancelledRuns > before);
    expect(r.events.filter((e) => e.id === 19)).toEqual([]);
    expect(r.events.filter((e) => e.method === 'notifications/progress').map((e) => e.params.progress)).toEqual([1]);
  });
});

describe('subscriptions/listen', () => {
  test('requires params.notifications', async () => {
    const r = await modernPost(server.url, 20, 'subscriptions/listen', {});
    expect(r.json().error).toMatchObject({ code: -32602, message: expect.stringContaining('notifications') });
  });
});

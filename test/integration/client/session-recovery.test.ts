/**
 * ContextClient and a legacy session the server lost (issue 39): a 404 to a request that carried the
 * session id starts a new session and retries that request once — the caller does not notice, and
 * the request runs once; a second 404 surfaces; a resource subscription that lived on the lost
 * session ends with SessionLostError. Against real serveHttp: a session evicted by a full pool, and
 * a server restarted between two calls.
 */
import { IsString } from 'class-validator';
import {
  Context,
  ContextClient,
  ContextServerModule,
  Field,
  McpApplication,
  Resource,
  SessionLostError,
  Tool,
} from '../../../src';
import { serveHttp, type HttpOptions, type HttpServerHandle } from '../../../src/transports/http';
import { silentLogger } from '../../../src/server/core/server-logger';
import { ServerError } from '../../../src/client/server-errors';
import { ErrorCode } from '../../../src/protocol/error-codes';
import { JSON_HEADERS, RawLegacyClient, rawRequest, streamingRequest, waitFor } from '../../helpers/http-fixtures';

const runs = { count: 0 };

class Note {
  @IsString() @Field() text!: string;
}

class NameForm {
  @IsString() name!: string;
}

class CountingTools {
  @Tool({ description: 'Asks a name' })
  async ask(_args: Note, ctx: Context) {
    const r = await ctx.elicit(NameForm, 'Your name?');
    return r.action === 'accept' ? r.content.name : 'no';
  }
  @Tool({ description: 'Counts its runs' })
  count(args: Note) {
    return `run ${++runs.count}: ${args.text}`;
  }
  @Resource({ uri: 'memo://today', name: 'today', mimeType: 'text/plain' })
  today() {
    return 'nothing yet';
  }
}

function app(): McpApplication {
  return McpApplication.create({
    name: 'recovery',
    version: '1.0.0',
    providers: [CountingTools],
    modules: [ContextServerModule.configure({ logger: silentLogger })],
  });
}

interface Sent {
  method: string;
  status: number;
  session?: string;
}

/**
 * A fetch that records each POST's method and status; `noGetStream` answers GET 405, as a proxy
 * without SSE would (a session holding its GET stream is in use, and never evicted).
 */
function recordingFetch(sent: Sent[], rewrite?: (method: string, session?: string) => Response | undefined) {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    if ((init?.method ?? 'GET') === 'GET') return new Response(null, { status: 405 });
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : {};
    const method = String(body.method ?? 'response');
    const session = headers.get('mcp-session-id') ?? undefined;
    const res = rewrite?.(method, session) ?? (await fetch(input, init));
    sent.push({ method, status: res.status, session });
    return res;
  }) as typeof fetch;
}

const textOf = (r: { content: Array<{ type: string; text?: string }> }) => r.content[0]?.text;

async function serve(http: Partial<HttpOptions> = {}): Promise<HttpServerHandle> {
  return serveHttp(app(), { port: 0, ...http });
}

beforeEach(() => {
  runs.count = 0;
});

test('a session evicted by a full pool: the next call starts a new session and runs once', async () => {
  const server = await serve({ maxAnonymousSessions: 1, sessionEvictionMinIdleMs: 0 });
  const sent: Sent[] = [];
  const client = await ContextClient.connect(
    { url: server.url, fetch: recordingFetch(sent) },
    { protocolVersion: '2025-11-25' },
  );
  try {
    expect(textOf(await client.callTool('count', { text: 'first' }))).toBe('run 1: first');
    // Another client takes the only anonymous slot: ours was idle, so it is evicted.
    expect((await new RawLegacyClient(server.url).initialize()).status).toBe(200);
    expect(textOf(await client.callTool('count', { text: 'second' }))).toBe('run 2: second');
    expect(runs.count).toBe(2);
    const calls = sent.filter((s) => s.method === 'tools/call');
    expect(calls.map((c) => c.status)).toEqual([200, 404, 200]);
    expect(calls[2]!.session).not.toBe(calls[1]!.session);
    expect(sent.filter((s) => s.method === 'initialize')).toHaveLength(2);
    expect(client.era).toBe('legacy');
  } finally {
    await client.close();
    await server.close({ deadlineMs: 1000 });
  }
});

test('a new session refused (the pool busy): the call fails with -32004; the next call tries again and is served', async () => {
  const server = await serve({ maxAnonymousSessions: 1, sessionEvictionMinIdleMs: 0 });
  const client = await ContextClient.connect(
    { url: server.url, fetch: recordingFetch([]) },
    { protocolVersion: '2025-11-25' },
  );
  const other = new RawLegacyClient(server.url);
  try {
    expect(textOf(await client.callTool('count', { text: 'one' }))).toBe('run 1: one');
    expect((await other.initialize({ elicitation: {} })).status).toBe(200); // evicts ours, then stays busy
    let held = false;
    const ask = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask', arguments: { text: 'x' } } };
    const busy = streamingRequest(
      server.url,
      { headers: { ...JSON_HEADERS, ...other.headers() }, body: JSON.stringify(ask) },
      (e) => (held ||= e.method === 'elicitation/create'),
    );
    await waitFor(() => held);
    const refused = await client.callTool('count', { text: 'two' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ServerError);
    expect(refused).toMatchObject({ code: ErrorCode.TooManySessions, httpStatus: 429 });
    await rawRequest(server.url, { method: 'DELETE', headers: other.headers() });
    await busy;
    expect(textOf(await client.callTool('count', { text: 'three' }))).toBe('run 2: three');
  } finally {
    await client.close();
    await server.close({ deadlineMs: 1000 });
  }
});

test('a second 404 surfaces: one new session, one retry, then the error', async () => {
  const server = await serve();
  const sent: Sent[] = [];
  // Every call on a session is answered 404, as by a server that keeps losing it.
  const notFound = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Session not found' } });
  const lose = (method: string, session?: string) =>
    method === 'tools/call' && session
      ? new Response(notFound, { status: 404, headers: { 'content-type': 'application/json' } })
      : undefined;
  const client = await ContextClient.connect(
    { url: server.url, fetch: recordingFetch(sent, lose) },
    { protocolVersion: '2025-11-25' },
  );
  try {
    const error = await client.callTool('count', { text: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).httpStatus).toBe(404);
    expect(sent.filter((s) => s.method === 'tools/call')).toHaveLength(2);
    expect(sent.filter((s) => s.method === 'initialize')).toHaveLength(2);
    expect(runs.count).toBe(0);
  } finally {
    await client.close();
    await server.close({ deadlineMs: 1000 });
  }
});

test('a server restarted between two calls: the client carries on (its GET stream too) and the call runs once', async () => {
  const first = await serve({ sseRetryMs: 50 });
  const port = first.port;
  const gets: number[] = [];
  const watching = (async (input: string | URL | Request, init?: RequestInit) => {
    const res = await fetch(input, init);
    if ((init?.method ?? 'GET') === 'GET') gets.push(res.status);
    return res;
  }) as typeof fetch;
  const client = await ContextClient.connect({ url: first.url, fetch: watching }, { protocolVersion: '2025-11-25' });
  let second: HttpServerHandle | undefined;
  try {
    expect(textOf(await client.callTool('count', { text: 'before' }))).toBe('run 1: before');
    await first.close({ deadlineMs: 1000 });
    second = await serve({ port, sseRetryMs: 50 });
    // The restart ended the GET stream; its resumption reaches the new server, which knows no such session.
    await waitFor(() => gets.includes(404), 10_000);
    expect(textOf(await client.callTool('count', { text: 'after' }))).toBe('run 2: after');
    expect(runs.count).toBe(2);
    expect(textOf(await client.callTool('count', { text: 'again' }))).toBe('run 3: again');
    await waitFor(() => gets.at(-1) === 200); // the new session's GET stream
  } finally {
    await client.close();
    await second?.close({ deadlineMs: 1000 });
  }
});

test('a resource subscription that lived on the lost session ends with SessionLostError', async () => {
  const server = await serve({ maxAnonymousSessions: 1, sessionEvictionMinIdleMs: 0 });
  const client = await ContextClient.connect(
    { url: server.url, fetch: recordingFetch([]) },
    { protocolVersion: '2025-11-25' },
  );
  try {
    const sub = await client.listen({ resourceSubscriptions: ['memo://today'] });
    const next = sub.next();
    expect((await new RawLegacyClient(server.url).initialize()).status).toBe(200);
    await client.ping(); // learns of the loss, recovers
    await expect(next).rejects.toBeInstanceOf(SessionLostError);
    await expect(next).rejects.toMatchObject({ code: 'OMC_CLIENT_SESSION_LOST' });
  } finally {
    await client.close();
    await server.close({ deadlineMs: 1000 });
  }
});

test('a restart while a call waits on an ask: the call and the ask end with SessionLostError; the next call is served', async () => {
  // The client resumes the cut stream after `retry` (1 s): the restarted server is up by then and says 404.
  const first = await serve({ sseRetryMs: 1000 });
  const port = first.port;
  let asked = false;
  let askEnded: unknown;
  const client = await ContextClient.connect(
    { url: first.url },
    {
      protocolVersion: '2025-11-25',
      elicitation: (_params, { signal }) =>
        new Promise((resolve) => {
          asked = true;
          signal.addEventListener('abort', () => {
            askEnded = signal.reason;
            resolve({ action: 'cancel' });
          });
        }),
    },
  );
  let second: HttpServerHandle | undefined;
  try {
    const call = client.callTool('ask', { text: 'x' }).catch((e: unknown) => e);
    await waitFor(() => asked);
    await first.close({ deadlineMs: 100 });
    second = await serve({ port });
    const error = await call;
    expect(error).toBeInstanceOf(SessionLostError);
    expect((error as SessionLostError).message).toMatch(/tools\/call was in flight and may have run/);
    await waitFor(() => askEnded !== undefined);
    // The ask ends either way: the server's notifications/cancelled (sent when the drain deadline aborts
    // the call) or the lost session, whichever the client hears first.
    expect(askEnded).toBeInstanceOf(Error);
    expect(textOf(await client.callTool('count', { text: 'next' }))).toBe('run 1: next');
  } finally {
    await client.close();
    await second?.close({ deadlineMs: 1000 });
  }
});

/**
 * A ContextClient over Streamable HTTP, both eras, against a real server: its calls reuse a
 * keep-alive pool of its own (sequential calls one connection, concurrent ones at most one each),
 * `close()` closes that pool, and 10 000 calls leave no listener behind — on the client's own
 * signals (no MaxListenersExceededWarning) or on a long-lived signal the caller passes to every call.
 */
import 'reflect-metadata';
import { getEventListeners } from 'node:events';
import type { Socket } from 'node:net';
import { ContextClient, ContextServerModule, McpApplication } from '../../../src';
import { silentLogger } from '../../../src/server/core/server-logger';
import { serveHttp, type HttpServerHandle } from '../../../src/transports/http';

jest.setTimeout(120_000);

const TEXT = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };

let server: HttpServerHandle;
const sockets: Socket[] = [];
const warnings: string[] = [];
const onWarning = (w: Error) => void warnings.push(`${w.name}: ${w.message}`);

beforeAll(async () => {
  const app = McpApplication.create({
    name: 'echo',
    version: '1.0.0',
    providers: [],
    modules: [ContextServerModule.configure({ logger: silentLogger })],
  });
  app.addTool({ name: 'echo', description: 'echo', input: TEXT, handler: (a: { text: string }) => a.text });
  // Idle connections kept for 10 minutes by the server: only the client closing them ends them.
  server = await serveHttp(app, { port: 0, keepAliveTimeoutMs: 600_000 });
  server.server.on('connection', (s: Socket) => sockets.push(s));
  process.on('warning', onWarning);
});
afterAll(async () => {
  process.off('warning', onWarning);
  await server.close({ deadlineMs: 1000 });
});

/** Resolves once every connection the server accepted is closed; the deadline is only a safety net. */
function allClosed(deadlineMs = 15_000): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const open = sockets.filter((s) => !s.destroyed);
  const closed = Promise.all(open.map((s) => new Promise((r) => s.once('close', r))));
  return Promise.race([closed, new Promise((r) => (timer = setTimeout(r, deadlineMs)))]).finally(() =>
    clearTimeout(timer),
  );
}

const textOf = (r: { content: unknown }) => (r.content as Array<{ text?: string }>)[0]?.text;

test.each(['2026-07-28', '2025-11-25'] as const)('%s: one pool, reused, closed with the client', async (version) => {
  warnings.length = 0;
  const before = sockets.length;
  const client = await ContextClient.connect({ url: server.url }, { protocolVersion: version });
  const afterConnect = sockets.length;
  const caller = new AbortController();
  try {
    for (let i = 0; i < 200; i++) {
      expect(textOf(await client.callTool('echo', { text: `s${i}` }, { signal: caller.signal }))).toBe(`s${i}`);
    }
    // One for the calls, and on 2025-11-25 the standalone GET stream holds one of its own.
    expect(sockets.length - afterConnect).toBeLessThanOrEqual(2);

    const callers = 20;
    await Promise.all(
      Array.from({ length: callers }, async (_, c) => {
        for (let i = 0; i < 10_000 / callers; i++) {
          const text = `c${c}-${i}`;
          expect(textOf(await client.callTool('echo', { text }, { signal: caller.signal }))).toBe(text);
        }
      }),
    );
    expect(sockets.length - afterConnect).toBeLessThanOrEqual(callers + 2);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    expect(warnings.filter((w) => w.includes('MaxListeners'))).toEqual([]);
  } finally {
    await client.close();
  }
  expect(sockets.length).toBeGreaterThan(before);
  await allClosed();
  expect(sockets.filter((s) => !s.destroyed)).toHaveLength(0);
});

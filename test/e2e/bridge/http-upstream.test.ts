/**
 * A mount in front of an upstream over real HTTP, on both upstream revisions: its calls share one
 * keep-alive pool (sequential calls reuse one connection, concurrent ones at most one each), the
 * pool closes with the mount, and nothing collects a listener per call (no MaxListeners warning).
 * Faults: a hung upstream gets the call's timeout, a caller's cancel reaches the upstream, and an
 * upstream process killed mid-call is a clear error; started again, the mount reconnects.
 */
import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { ContextClient, ContextServerModule, McpApplication, mountServer, type Mount } from '../../../src';
import { silentLogger } from '../../../src/server/core/server-logger';
import { serveHttp, type HttpServerHandle } from '../../../src/transports/http';
import { freePort } from '../../helpers/free-port';

jest.setTimeout(120_000);

const VERSIONS = ['2026-07-28', '2025-11-25'] as const;
const TEXT = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };

/** The TCP connections a server accepted: how many, and a wait for all of them to be closed. */
function connectionsOf(server: HttpServerHandle) {
  const sockets: Socket[] = [];
  server.server.on('connection', (s: Socket) => sockets.push(s));
  return {
    get accepted() {
      return sockets.length;
    },
    get open() {
      return sockets.filter((s) => !s.destroyed).length;
    },
    /** Resolves once every accepted connection closed; the deadline is a safety net, not a measure. */
    allClosed: (deadlineMs = 15_000) => {
      let timer: NodeJS.Timeout | undefined;
      const open = sockets.filter((s) => !s.destroyed);
      const closed = Promise.all(open.map((s) => new Promise((r) => s.once('close', r))));
      const late = new Promise((r) => (timer = setTimeout(r, deadlineMs)));
      return Promise.race([closed, late]).finally(() => clearTimeout(timer));
    },
  };
}

/** An upstream app: `echo`, and `wait`, which resolves `started` and waits until its call is cancelled. */
function upstreamApp() {
  const seen = { started: deferred(), cancelled: deferred() };
  const app = McpApplication.create({
    name: 'upstream',
    version: '1.0.0',
    providers: [],
    modules: [ContextServerModule.configure({ logger: silentLogger })],
  });
  app.addTool({ name: 'echo', description: 'echo', input: TEXT, handler: (a: { text: string }) => a.text });
  app.addTool({
    name: 'wait',
    description: 'waits until cancelled',
    handler: (_a, ctx) =>
      new Promise((_resolve, reject) => {
        seen.started.resolve();
        ctx.signal.addEventListener('abort', () => (seen.cancelled.resolve(), reject(new Error('cancelled'))), {
          once: true,
        });
      }),
  });
  return { app, seen };
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

function bridgeApp() {
  return McpApplication.create({
    name: 'bridge',
    version: '1.0.0',
    providers: [],
    modules: [ContextServerModule.configure({ logger: silentLogger, requestStateKey: randomBytes(32) })],
  });
}

const textOf = (r: { content: unknown }) => (r.content as Array<{ text?: string }>)[0]?.text;

const warnings: string[] = [];
const onWarning = (w: Error) => void warnings.push(`${w.name}: ${w.message}`);
beforeAll(() => void process.on('warning', onWarning));
afterAll(() => void process.off('warning', onWarning));

describe.each(VERSIONS)('upstream spoken to in %s', (version) => {
  test('calls share one keep-alive pool, closed with the mount; no listener per call', async () => {
    // A server that would keep idle connections for 10 minutes: only the client closing them ends them.
    const { app: up } = upstreamApp();
    const upstream = await serveHttp(up, { port: 0, keepAliveTimeoutMs: 600_000 });
    const conns = connectionsOf(upstream);
    const app = bridgeApp();
    const mount: Mount = await mountServer(app, { namespace: 'up', url: upstream.url, protocolVersion: version });
    const client = await ContextClient.connect({ app }, { protocolVersion: '2026-07-28' });
    warnings.length = 0;
    try {
      const before = conns.accepted;
      for (let i = 0; i < 200; i++) expect(textOf(await client.callTool('up_echo', { text: `s${i}` }))).toBe(`s${i}`);
      expect(conns.accepted - before).toBeLessThanOrEqual(1);

      // 30 callers at once, 2 000 calls: at most one more connection per caller in flight.
      const callers = 30;
      await Promise.all(
        Array.from({ length: callers }, async (_, c) => {
          for (let i = 0; i < 2000 / callers; i++) {
            expect(textOf(await client.callTool('up_echo', { text: `c${c}-${i}` }))).toBe(`c${c}-${i}`);
          }
        }),
      );
      const afterBurst = conns.accepted;
      expect(afterBurst - before).toBeLessThanOrEqual(callers + 1);
      // The pool keeps them: sequential calls after the burst open none.
      for (let i = 0; i < 200; i++) await client.callTool('up_echo', { text: 'again' });
      expect(conns.accepted).toBe(afterBurst);
      expect(warnings.filter((w) => w.includes('MaxListeners'))).toEqual([]);
    } finally {
      await client.close();
      await mount.close();
    }
    // The mount's pool closed with it, without waiting for the server's keep-alive timeout.
    await conns.allClosed();
    expect(conns.open).toBe(0);
    await upstream.close({ deadlineMs: 1000 });
  });

  test('a hung upstream: the call gets its timeout, is cancelled upstream, and the mount keeps serving', async () => {
    const { app: up, seen } = upstreamApp();
    const upstream = await serveHttp(up, { port: 0 });
    const app = bridgeApp();
    const mount = await mountServer(app, {
      namespace: 'up',
      url: upstream.url,
      protocolVersion: version,
      // A 2026 upstream call has the request timeout; a legacy one, which may wait on its caller's
      // answers, the parked-call deadline (docs/bridge.md).
      ...(version === '2026-07-28' ? { requestTimeoutMs: 1000 } : { parkTimeoutMs: 1000 }),
      onEvent: () => {},
    });
    const client = await ContextClient.connect({ app }, { protocolVersion: '2026-07-28' });
    try {
      const timedOut = await client.callTool('up_wait', {}).catch((e: unknown) => e);
      if (version === '2026-07-28') {
        // The handler's error becomes the tool's error result, as for any tool.
        expect(timedOut).toMatchObject({ isError: true });
        expect(textOf(timedOut as { content: unknown })).toMatch(/got no response within 1000 ms; it was cancelled/);
      } else {
        expect(timedOut).toMatchObject({ code: -32603, data: { reason: 'call_deadline' } });
      }
      await seen.cancelled.promise;
      expect(textOf(await client.callTool('up_echo', { text: 'still here' }))).toBe('still here');
    } finally {
      await client.close();
      await mount.close();
      await upstream.close({ deadlineMs: 1000 });
    }
  });

  test("a caller's cancel reaches the upstream call", async () => {
    const { app: up, seen } = upstreamApp();
    const upstream = await serveHttp(up, { port: 0 });
    const app = bridgeApp();
    const mount = await mountServer(app, {
      namespace: 'up',
      url: upstream.url,
      protocolVersion: version,
      onEvent: () => {},
    });
    const bridge = await serveHttp(app, { port: 0 });
    const client = await ContextClient.connect({ url: bridge.url }, { protocolVersion: '2026-07-28' });
    try {
      const cancel = new AbortController();
      const call = client.callTool('up_wait', {}, { signal: cancel.signal }).catch((e: unknown) => e);
      await seen.started.promise;
      cancel.abort(new Error('the caller gave up'));
      expect(String(((await call) as Error).message)).toMatch(/the caller gave up/);
      await seen.cancelled.promise;
      expect(textOf(await client.callTool('up_echo', { text: 'next' }))).toBe('next');
    } finally {
      await client.close();
      await bridge.close({ deadlineMs: 1000 });
      await mount.close();
      await upstream.close({ deadlineMs: 1000 });
    }
  });

  test('the upstream process killed mid-call: a clear error; started again, the next call goes through', async () => {
    const port = await freePort();
    let child = await startUpstream(port);
    const events: string[] = [];
    let back = deferred();
    const app = bridgeApp();
    const mount = await mountServer(app, {
      namespace: 'up',
      url: `http://127.0.0.1:${port}/mcp`,
      protocolVersion: version,
      restartMinMs: 50,
      restartMaxMs: 200,
      onEvent: (m) => {
        events.push(m);
        if (m.includes('is back')) back.resolve();
      },
    });
    const client = await ContextClient.connect({ app }, { protocolVersion: '2026-07-28' });
    try {
      expect(textOf(await client.callTool('up_echo', { text: 'before' }))).toBe('before');
      const call = client.callTool('up_wait', {}).catch((e: unknown) => e);
      await child.started;
      back = deferred();
      await kill(child.process);
      const error = (await call) as Error & { data?: { reason?: string } };
      expect(error.message).toMatch(/mounted server "up" failed during the call/);
      expect(error.data?.reason).toBe('upstream_unavailable');
      child = await startUpstream(port);
      await back.promise;
      expect(textOf(await client.callTool('up_echo', { text: 'after' }))).toBe('after');
      expect(events.some((e) => e.includes('is down'))).toBe(true);
    } finally {
      await client.close();
      await mount.close();
      await kill(child.process);
    }
  });
});

/** The fixture upstream in its own process on `port`; `started` resolves when its `wait` tool runs. */
async function startUpstream(port: number): Promise<{ process: ChildProcess; started: Promise<void> }> {
  const child = spawn(process.execPath, [join(__dirname, 'fixtures/http-upstream.cjs'), String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const started = deferred();
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('listening')) resolve();
      if (out.includes('started')) started.resolve();
    });
    child.once('exit', (code) => reject(new Error(`the upstream exited (${code}): ${out}`)));
  });
  return { process: child, started: started.promise };
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

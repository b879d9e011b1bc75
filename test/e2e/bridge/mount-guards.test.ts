/**
 * Per-mount guards and interceptors (`MountOptions.guards` / `interceptors`): two upstreams (our
 * own apps over Streamable HTTP) mounted side by side; a guard on one mount hides and refuses its
 * tools while the other mount's stay visible, and an interceptor on the other sees each of its calls.
 * Driven by the official clients of both revisions over real HTTP.
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import {
  ContextServerModule,
  McpApplication,
  mountServer,
  type CallNext,
  type ExecutionContext,
  type Mount,
} from '../../../src';
import { silentLogger } from '../../../src/server/core/server-logger';
import { serveHttp, type HttpServerHandle } from '../../../src/transports/http';
import { legacyPeer, modernPeer, type Peer } from './peers';

jest.setTimeout(60_000);

function upstreamApp(name: string): McpApplication {
  const app = McpApplication.create({
    name,
    version: '1.0.0',
    providers: [],
    modules: [ContextServerModule.configure({ logger: silentLogger })],
  });
  app.addTool({ name: 'whoami', description: `the ${name} upstream`, handler: () => `I am ${name}` });
  return app;
}

/** Nobody reaches the private mount (hidden from lists, refused on call). */
const Closed = { canActivate: () => false };
/** What the public mount's interceptor saw. */
const seen: string[] = [];
const Audit = {
  intercept(ctx: ExecutionContext, next: CallNext) {
    seen.push(`${ctx.phase} ${ctx.target}`);
    return next();
  },
};

let upstreams: HttpServerHandle[];
let mounts: Mount[];
let app: McpApplication;
let server: HttpServerHandle;

beforeAll(async () => {
  upstreams = [
    await serveHttp(upstreamApp('private'), { port: 0 }),
    await serveHttp(upstreamApp('public'), { port: 0 }),
  ];
  app = McpApplication.create({
    name: 'gateway',
    version: '1.0.0',
    providers: [],
    modules: [ContextServerModule.configure({ logger: silentLogger, requestStateKey: randomBytes(32) })],
  });
  mounts = [
    await mountServer(app, { namespace: 'private', url: upstreams[0]!.url, guards: [Closed] }),
    await mountServer(app, { namespace: 'public', url: upstreams[1]!.url, interceptors: [Audit] }),
  ];
  server = await serveHttp(app, { port: 0 });
});
afterAll(async () => {
  await server.close({ deadlineMs: 1000 });
  for (const m of mounts) await m.close();
  for (const u of upstreams) await u.close({ deadlineMs: 1000 });
  await app.close();
});

describe.each([
  ['official v2 client (2026-07-28)', modernPeer],
  ['official v1 client (2025-11-25)', legacyPeer],
] as const)('%s', (_title, connect) => {
  let peer: Peer;
  beforeEach(async () => (peer = await connect(server.url)));
  afterEach(() => peer.close());

  test("a guard on one mount hides and refuses its tools; the other mount's stay visible", async () => {
    expect(mounts[0]!.names('tools')).toEqual(['private_whoami']);
    const tools = await peer.listTools();
    expect(tools).toContain('public_whoami');
    expect(tools).not.toContain('private_whoami');
    const refused = await peer.call('private_whoami').catch((e: Error) => e);
    expect(refused instanceof Error ? refused.message : refused.text).not.toContain('I am private');
    seen.length = 0;
    expect((await peer.call('public_whoami')).text).toBe('I am public');
    expect(seen).toEqual(['call public_whoami']);
  });
});

test('a mount option that is not a guard fails the mount, naming the option', async () => {
  class NotAGuard {}
  await expect(
    mountServer(app, { namespace: 'bad', url: upstreams[1]!.url, guards: [NotAGuard] as never }),
  ).rejects.toThrow(/MountOptions "bad": guards lists NotAGuard, which has no canActivate\(\) method/);
  await expect(
    mountServer(app, { namespace: 'bad', url: upstreams[1]!.url, interceptors: ['x'] as never }),
  ).rejects.toThrow(/interceptors/);
  expect(app.removeTool('bad_whoami')).toBe(false);
});

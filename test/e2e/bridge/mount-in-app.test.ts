/**
 * A mount inside an app that has its own tools: server-everything (stdio child) under the
 * namespace `everything`, beside a decorated tool, with app-wide guards that see mounted items like
 * the app's own — one hides and refuses a mounted tool, a rate limit charges a multi-round call once.
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import {
  ContextClient,
  ContextServerModule,
  McpApplication,
  mountServer,
  RateLimit,
  Tool,
  type CanActivate,
  type ExecutionContext,
  type Mount,
} from '../../../src';
import { silentLogger } from '../../../src/server/core/server-logger';
import { serveHttp, type HttpServerHandle } from '../../../src/transports/http';
import { EVERYTHING, legacyPeer, modernPeer, type Peer } from './peers';

jest.setTimeout(60_000);

class Local {
  @Tool({ description: 'our own tool, beside the mounted ones' })
  greet() {
    return 'hello from the app';
  }
}

/** Nobody may sample through the mount (hidden from lists, refused on call). */
class NoMountedSampling implements CanActivate {
  canActivate(ctx: ExecutionContext) {
    return ctx.target !== 'everything_trigger-sampling-request';
  }
}

/** Every tool, mounted or ours: once a minute per caller, however many rounds a call takes. */
const Rare = RateLimit({ capacity: 1, refillPerSecond: 1 / 60 });

let app: McpApplication;
let mount: Mount;
let server: HttpServerHandle;
const events: string[] = [];

beforeEach(async () => {
  app = McpApplication.create({
    name: 'app-with-mount',
    version: '1.0.0',
    providers: [Local],
    guards: [NoMountedSampling, Rare],
    modules: [ContextServerModule.configure({ logger: silentLogger, requestStateKey: randomBytes(32) })],
  });
  mount = await mountServer(app, {
    namespace: 'everything',
    command: process.execPath,
    args: [EVERYTHING, 'stdio'],
    onEvent: (m) => events.push(m),
  });
  server = await serveHttp(app, { port: 0 });
});
afterEach(async () => {
  await server.close({ deadlineMs: 1000 });
  await mount.close();
  await app.close();
});

describe.each([
  ['official v2 client (2026-07-28)', modernPeer],
  ['official v1 client (2025-11-25)', legacyPeer],
] as const)('%s', (_title, connect) => {
  let peer: Peer;
  beforeEach(async () => (peer = await connect(server.url)));
  afterEach(() => peer.close());

  test('sees our tool and the mounted ones (namespaced), minus the guarded one', async () => {
    const tools = await peer.listTools();
    expect(tools).toEqual(
      expect.arrayContaining(['greet', 'everything_echo', 'everything_trigger-elicitation-request']),
    );
    expect(tools).not.toContain('everything_trigger-sampling-request');
    expect(tools).not.toContain('echo');
    expect((await peer.call('greet')).text).toBe('hello from the app');
    expect((await peer.call('everything_echo', { message: 'through the mount' })).text).toContain('through the mount');
  });

  test('a mounted asking tool completes; the rate limit charges the whole multi-round call once', async () => {
    expect((await peer.call('everything_trigger-elicitation-request')).text).toContain('Ada');
    expect(peer.asks).toContain('elicitation');
    await expect(peer.call('everything_trigger-elicitation-request')).rejects.toThrow();
  });

  test('the guard refuses the hidden mounted tool without reaching the upstream', async () => {
    const refused = await peer.call('everything_trigger-sampling-request', { prompt: 'x' }).catch((e: Error) => e);
    expect(refused instanceof Error || refused.isError).toBe(true);
    expect(peer.asks).not.toContain('sampling');
  });
});

test.each(['2026-07-28', '2025-11-25'] as const)(
  '%s: resources, templates, prompts and completions are mounted under the namespace and routed',
  async (protocolVersion) => {
    const uris = mount.names('resources');
    expect(uris.length).toBeGreaterThan(0);
    expect(uris.every((uri) => uri.startsWith('everything+'))).toBe(true);
    expect(mount.names('templates').every((t) => t.startsWith('everything+'))).toBe(true);
    const client = await ContextClient.connect({ url: server.url }, { protocolVersion });
    try {
      const read = await client.readResource(uris[0]!);
      expect(read.contents[0]!.uri).toBe(uris[0]);
      const prompt = await client.getPrompt('everything_simple-prompt');
      expect(prompt.messages.length).toBeGreaterThan(0);
      const ref = { type: 'ref/prompt' as const, name: 'everything_completable-prompt' };
      expect((await client.complete({ ref, argument: { name: 'department', value: 'E' } })).values).toEqual([
        'Engineering',
      ]);
      const lead = await client.complete({
        ref,
        argument: { name: 'name', value: 'A' },
        context: { arguments: { department: 'Engineering' } },
      });
      expect(lead.values).toEqual(['Alice']);
    } finally {
      await client.close();
    }
  },
);

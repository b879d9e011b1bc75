/**
 * Mounts declared next to the providers (`BridgeModule.configure({ mounts })`): validated and
 * frozen when the module is built (a malformed mount names `mounts[i]`), mounted when the app
 * starts serving, closed by `app.close()`; an upstream that cannot be reached fails start-up.
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { BridgeModule, ContextServerModule, McpApplication, Tool } from '../../../src';
import { silentLogger } from '../../../src/server/core/server-logger';
import { serveHttp, type HttpServerHandle } from '../../../src/transports/http';
import { freePort } from '../../helpers/free-port';
import { legacyPeer, modernPeer } from './peers';

jest.setTimeout(60_000);

class Local {
  @Tool({ description: 'our own tool' })
  greet() {
    return 'hello';
  }
}

function gateway(bridge: ReturnType<typeof BridgeModule.configure>): McpApplication {
  return McpApplication.create({
    name: 'gateway',
    version: '1.0.0',
    providers: [Local],
    modules: [ContextServerModule.configure({ logger: silentLogger, requestStateKey: randomBytes(32) }), bridge],
  });
}

let upstream: HttpServerHandle;
let upstreamApp: McpApplication;

beforeAll(async () => {
  upstreamApp = McpApplication.create({
    name: 'billing',
    version: '1.0.0',
    providers: [],
    modules: [ContextServerModule.configure({ logger: silentLogger })],
  });
  upstreamApp.addTool({ name: 'refund', description: 'refund an order', handler: () => 'refunded' });
  upstream = await serveHttp(upstreamApp, { port: 0 });
});
afterAll(() => upstream.close({ deadlineMs: 1000 }));

test('a declared mount is served beside our own tools once the app serves, and closed with the app', async () => {
  const bridge = BridgeModule.configure({ mounts: [{ namespace: 'billing', url: upstream.url, onEvent: () => {} }] });
  expect(Object.isFrozen(bridge.options.mounts[0])).toBe(true);
  expect(bridge.options.mounts[0]!.protocolVersion).toBe('auto');
  const app = gateway(bridge);
  const server = await serveHttp(app, { port: 0 });
  try {
    for (const connect of [modernPeer, legacyPeer]) {
      const peer = await connect(server.url);
      try {
        expect((await peer.listTools()).sort()).toEqual(['billing_refund', 'greet']);
        expect((await peer.call('billing_refund')).text).toBe('refunded');
      } finally {
        await peer.close();
      }
    }
    await app.start(); // once: a second start mounts nothing twice
  } finally {
    await server.close({ deadlineMs: 1000 });
    await app.close();
  }
  expect(app.removeTool('billing_refund')).toBe(false); // unmounted by app.close()
});

test('a malformed mount option fails at start-up, naming it', () => {
  expect(() => BridgeModule.configure({ mounts: [{ namespace: 'billing', url: upstream.url, comand: 'x' } as never] }))
    .toThrow(/BridgeModule[\s\S]*mounts\[0\][\s\S]*comand/);
  expect(() => BridgeModule.configure({ mounts: [{ namespace: 'a', url: 'ftp://x' }] })).toThrow(/mounts\[0\].*url/s);
  expect(() => BridgeModule.configure({ mounts: [{ namespace: 'a' }] })).toThrow(/mounts\[0\].*exactly one of/s);
  expect(() =>
    BridgeModule.configure({ mounts: [{ namespace: 'a', url: upstream.url }, { namespace: 'a', url: upstream.url }] }),
  ).toThrow(/mounts\[1\]\.namespace.*mounted twice/s);
  expect(() => BridgeModule.configure({ mount: [] } as never)).toThrow(/mount: unknown option/);
});

test('an upstream that cannot be reached fails start-up with OMC_MOUNT_FAILED, naming the mount', async () => {
  const port = await freePort();
  const app = gateway(
    BridgeModule.configure({
      mounts: [
        { namespace: 'billing', url: upstream.url, onEvent: () => {} },
        { namespace: 'gone', url: `http://127.0.0.1:${port}/mcp`, onEvent: () => {} },
      ],
    }),
  );
  await expect(serveHttp(app, { port: 0 })).rejects.toMatchObject({
    code: 'OMC_MOUNT_FAILED',
    message: expect.stringMatching(/mount "gone" failed to start/),
  });
  expect(app.removeTool('billing_refund')).toBe(false); // the mount started before it was closed
  await app.close();
});

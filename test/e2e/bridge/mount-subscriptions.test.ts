/**
 * Resource subscriptions on a mounted resource reach the upstream: a legacy caller's
 * `resources/subscribe` and a 2026 caller's `subscriptions/listen` (resourceSubscriptions) each
 * hold the upstream's subscription (one per URI, however many callers); the upstream's
 * `resources/updated` reaches the subscriber under the mounted URI; the last unsubscribe (or stream
 * close) unsubscribes upstream. The upstream is our own app over Streamable HTTP, spoken to in both
 * revisions, whose resource counts its subscribers (what its server was told, not what we sent).
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { ContextClient, ContextServerModule, McpApplication, mountServer, type Mount } from '../../../src';
import { buildResource } from '../../../src/registry/build-definitions';
import { silentLogger } from '../../../src/server/core/server-logger';
import { serveHttp, type HttpServerHandle } from '../../../src/transports/http';

jest.setTimeout(60_000);

/** The upstream's count of subscribers to memo://note, with a wait for a given count. */
class Holders {
  count = 0;
  private waiters: Array<() => void> = [];
  change(by: number): void {
    this.count += by;
    this.waiters.splice(0).forEach((w) => w());
  }
  async until(n: number): Promise<void> {
    while (this.count !== n) await new Promise<void>((r) => this.waiters.push(r));
  }
}

describe.each(['2025-11-25', '2026-07-28'] as const)('upstream spoken to in %s', (upstreamVersion) => {
  const holders = new Holders();
  let upstreamApp: McpApplication;
  let upstream: HttpServerHandle;
  let app: McpApplication;
  let mount: Mount;
  let server: HttpServerHandle;

  beforeAll(async () => {
    upstreamApp = McpApplication.create({
      name: 'notes',
      version: '1.0.0',
      providers: [],
      modules: [ContextServerModule.configure({ logger: silentLogger })],
    });
    const note = buildResource({ uri: 'memo://note', name: 'note' }, 'note', {
      kind: 'function',
      fn: (() => ({ text: 'hello' })) as never,
    });
    upstreamApp.addDefinition({ ...note, watch: () => (holders.change(1), () => holders.change(-1)) });
    upstream = await serveHttp(upstreamApp, { port: 0 });
    app = McpApplication.create({
      name: 'gateway',
      version: '1.0.0',
      providers: [],
      modules: [ContextServerModule.configure({ logger: silentLogger, requestStateKey: randomBytes(32) })],
    });
    mount = await mountServer(app, { namespace: 'notes', url: upstream.url, protocolVersion: upstreamVersion });
    server = await serveHttp(app, { port: 0 });
  });
  afterAll(async () => {
    await server.close({ deadlineMs: 1000 });
    await mount.close();
    await upstream.close({ deadlineMs: 1000 });
  });

  test('both revisions of callers share one upstream subscription; updates arrive under our URI', async () => {
    expect(mount.names('resources')).toEqual(['notes+memo://note']);
    const legacy = await ContextClient.connect({ url: server.url }, { protocolVersion: '2025-11-25' });
    const modern = await ContextClient.connect({ url: server.url }, { protocolVersion: '2026-07-28' });
    try {
      const subs = [];
      for (const client of [legacy, modern]) {
        const sub = await client.listen({ resourceSubscriptions: ['notes+memo://note'] });
        await sub.acknowledged;
        subs.push(sub);
      }
      await holders.until(1);
      expect(mount.subscribedUpstream).toEqual(['memo://note']);

      upstreamApp.notifyResourceUpdated('memo://note');
      for (const sub of subs) {
        const next = await sub[Symbol.asyncIterator]().next();
        expect(next.value).toMatchObject({
          method: 'notifications/resources/updated',
          params: { uri: 'notes+memo://note' },
        });
      }

      await subs[0]!.close(); // the legacy caller unsubscribes: the modern one still holds it
      expect(holders.count).toBe(1);
      await subs[1]!.close(); // the 2026 stream closes: nobody holds it, so the upstream is unsubscribed
      await holders.until(0);
      expect(mount.subscribedUpstream).toEqual([]);
    } finally {
      await legacy.close();
      await modern.close();
    }
  });

  test("a legacy caller's session ending unsubscribes upstream", async () => {
    const legacy = await ContextClient.connect({ url: server.url }, { protocolVersion: '2025-11-25' });
    const sub = await legacy.listen({ resourceSubscriptions: ['notes+memo://note'] });
    await sub.acknowledged;
    await holders.until(1);
    await legacy.close(); // DELETE of the session, without unsubscribing first
    await holders.until(0);
    expect(mount.subscribedUpstream).toEqual([]);
  });
});

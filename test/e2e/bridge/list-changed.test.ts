/**
 * A mount stays current: when the upstream announces list_changed (2026-07-28 over
 * subscriptions/listen, or a legacy session's notification), the mount lists again and adds,
 * replaces or removes what changed — and our own listeners hear our list_changed.
 */
import 'reflect-metadata';
import { ContextClient, McpApplication, mountServer, type Mount } from '../../../src';
import { serveHttp, type HttpServerHandle } from '../../../src/transports/http';

jest.setTimeout(30_000);

/** Re-checks until it holds (each check is a real list); the deadline is only a safety net. */
async function until(check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('never happened');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.each(['2026-07-28', '2025-11-25'] as const)('upstream spoken in %s', (protocolVersion) => {
  let upstreamApp: McpApplication;
  let upstream: HttpServerHandle;
  let app: McpApplication;
  let mount: Mount;
  beforeEach(async () => {
    upstreamApp = McpApplication.create({ name: 'changing', version: '1.0.0', providers: [] });
    upstreamApp.addTool({ name: 'first', description: 'there from the start', handler: () => 'first' });
    upstream = await serveHttp(upstreamApp, { port: 0 });
    app = McpApplication.create({ name: 'front', version: '1.0.0', providers: [] });
    mount = await mountServer(app, { namespace: 'up', url: upstream.url, protocolVersion });
  });
  afterEach(async () => {
    await mount.close();
    await upstream.close({ deadlineMs: 1000 });
  });

  test('a tool added, changed and removed upstream is added, replaced and removed here', async () => {
    expect(mount.names('tools')).toEqual(['up_first']);
    const ours = await ContextClient.connect({ app });
    const heard = await ours.listen({ toolsListChanged: true });
    try {
      upstreamApp.addTool({ name: 'late', description: 'added at run time', handler: () => 'late' });
      await until(() => mount.names('tools').includes('up_late'));
      expect((await ours.callTool('up_late')).content).toEqual([{ type: 'text', text: 'late' }]);
      const next = await heard[Symbol.asyncIterator]().next();
      expect(next.value?.method).toBe('notifications/tools/list_changed');

      upstreamApp.removeTool('first');
      upstreamApp.addTool({ name: 'first', description: 'changed', handler: () => 'first, changed' });
      await until(async () => (await ours.listTools()).some((t) => t.description === 'changed'));
      expect((await ours.callTool('up_first')).content).toEqual([{ type: 'text', text: 'first, changed' }]);

      upstreamApp.removeTool('late');
      await until(() => !mount.names('tools').includes('up_late'));
    } finally {
      await heard.close();
      await ours.close();
    }
  });
});

/** The telemetry counts each question no person saw (`mcp.server.asks`, outcome `not_shown`), never the answer. */
import 'reflect-metadata';
import { Context, ContextServerModule, McpApplication, Tool, connectTestClient } from '../../../src';
import { installOtel, pointsOf, type TestOtel } from '../../helpers/otel';

class Danger {
  @Tool({ asks: { kinds: ['confirm'], fallback: 'deny' } })
  async wipe(ctx: Context) {
    return (await ctx.confirm('Wipe?', { key: 'wipe' })) ? 'wiped' : `kept (${ctx.notShown[0]?.reason})`;
  }
}

let otel: TestOtel;
beforeAll(() => {
  otel = installOtel();
});
afterAll(() => otel.shutdown());

test('no capability and instant declines are counted as not_shown, per ask kind', async () => {
  const app = McpApplication.create({
    name: 'danger',
    version: '1.0.0',
    providers: [Danger],
    modules: [
      ContextServerModule.configure({
        asks: { minDeclineMs: 60_000 },
        logger: { warn: () => undefined, error: () => undefined },
      }),
    ],
  });
  const blind = await connectTestClient(app, { era: '2025-11-25', declare: [] });
  expect((await blind.callTool('wipe', {})).text).toBe('kept (no-capability)');
  await blind.close();
  const hasty = await connectTestClient(app, { era: '2026-07-28', answers: { wipe: { action: 'decline' } } });
  expect((await hasty.callTool('wipe', {})).text).toBe('kept (instant-decline)');
  await hasty.close();
  const metrics = await otel.collect();
  const notShown = pointsOf(metrics, 'mcp.server.asks', { 'mcp.ask.outcome': 'not_shown' });
  expect(notShown.map((p) => [p.attributes['mcp.ask.kind'], p.value])).toEqual([['elicitation', 2]]);
});

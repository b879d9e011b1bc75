/** What context-server.ts says about 2026 cache hints: every complete result, never an input_required one. */
import { Context, Resource } from '../../../../src';
import { MemoryClient, makeApp } from '../../../helpers/apps';

class Guarded {
  @Resource({ uri: 'test://guarded', cache: { ttlMs: 5000, cacheScope: 'private' } })
  async guarded(ctx: Context) {
    return (await ctx.confirm('Show it?', { key: 'ok' })) ? 'shown' : 'hidden';
  }
}

test('a resources/read that asks: no hints on input_required, hints on the retry that completes', async () => {
  const client = await MemoryClient.connect(makeApp([Guarded]), { era: 'modern', capabilities: { elicitation: {} } });
  const first = await client.request('resources/read', { uri: 'test://guarded' });
  expect(first.resultType).toBe('input_required');
  expect(first).not.toHaveProperty('ttlMs');
  expect(first).not.toHaveProperty('cacheScope');
  const retry = await client.request('resources/read', {
    uri: 'test://guarded',
    inputResponses: { ok: { action: 'accept', content: { confirm: true } } },
    requestState: first.requestState,
  });
  expect(retry).toMatchObject({
    resultType: 'complete',
    ttlMs: 5000,
    cacheScope: 'private',
    contents: [{ text: 'shown' }],
  });
});

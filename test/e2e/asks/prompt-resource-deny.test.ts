/** Prompts and resources take `deny` (declared, or the app-wide default): no capability declines with the reason. */
import 'reflect-metadata';
import { Context, ContextServerModule, McpApplication, Prompt, Resource, connectTestClient } from '../../../src';

class Advice {
  @Prompt({ asks: { kinds: ['confirm'], fallback: 'deny' } })
  async advice(ctx: Context) {
    const ok = await ctx.confirm('Include the risky part?', { key: 'risky' });
    return ok ? 'all of it' : `the safe part (${ctx.notShown.map((n) => n.reason).join(',')})`;
  }

  @Resource({ uri: 'memo://today' })
  async today(ctx: Context) {
    const ok = await ctx.confirm('Show private notes?', { key: 'private' });
    return ok ? 'private notes' : `public notes (${ctx.notShown.map((n) => n.reason).join(',')})`;
  }
}

const app = McpApplication.create({
  name: 'advice',
  version: '1.0.0',
  providers: [Advice],
  modules: [
    ContextServerModule.configure({
      asks: { fallback: 'deny' },
      logger: { warn: () => undefined, error: () => undefined },
    }),
  ],
});

test.each(['2026-07-28', '2025-11-25'] as const)('%s, a client without elicitation', async (era) => {
  const kit = await connectTestClient(app, { era, declare: [] });
  try {
    expect((await kit.getPrompt('advice')).text).toBe('the safe part (no-capability)');
    expect((await kit.readResource('memo://today')).text).toBe('public notes (no-capability)');
  } finally {
    await kit.close();
  }
});

/**
 * Issue 14 §3, the replay linter: in the test kit every 2026 round that still asks runs twice with
 * the same answers; a different question, order or set of once keys, and an @Effect() called
 * outside ctx.once in such a round, fail the call with a message naming the ask key and both
 * versions. 'warn' logs instead; 'off' (the default outside the kit) runs each round once.
 */
import { injectable } from 'tsyringe';
import {
  Context,
  ContextClient,
  ContextServerModule,
  Effect,
  McpApplication,
  Tool,
  connectTestClient,
} from '../../../../src';
import type { ServerLogger } from '../../../../src/server/core/server-logger';

const calls = { charge: 0, audit: 0 };

@injectable()
class Billing {
  @Effect()
  charge(): string {
    calls.charge++;
    return `ch_${calls.charge}`;
  }
  @Effect()
  audit(): void {
    calls.audit++;
  }
}

let attempt = 0;

@injectable()
class Shop {
  constructor(private readonly billing: Billing) {}

  @Tool({ description: 'Replay-safe: charge fenced, audit after the last ask' })
  async safe(ctx: Context) {
    if (!(await ctx.confirm('Pay €20?', { key: 'pay' }))) return 'no';
    const charge = await ctx.once('charge', () => this.billing.charge());
    const again = await ctx.confirm('Send receipt?', { key: 'receipt' });
    this.billing.audit();
    return `${charge} ${again}`;
  }
  @Tool({ description: 'Asks a question that changes on every run' })
  async drifting(ctx: Context) {
    attempt++;
    return String(await ctx.confirm(`Attempt ${attempt}: go on?`, { key: 'go' }));
  }
  @Tool({ description: 'Charges before it asks, unfenced' })
  async careless(ctx: Context) {
    const charge = this.billing.charge();
    return `${charge} ${await ctx.confirm('Keep it?', { key: 'keep' })}`;
  }
  @Tool({ description: 'A once key that depends on the run' })
  async onceDrift(ctx: Context) {
    attempt++;
    await ctx.once(`step-${attempt}`, () => 1);
    return String(await ctx.confirm('Fine?', { key: 'fine' }));
  }
}

const yes = { elicitation: () => ({ action: 'accept' as const, content: { confirm: true } }) };

function app(logger?: ServerLogger, replayLint?: 'warn' | 'off') {
  const modules =
    logger || replayLint
      ? [ContextServerModule.configure({ ...(logger ? { logger } : {}), ...(replayLint ? { replayLint } : {}) })]
      : [];
  return McpApplication.create({ name: 'lint', version: '1.0.0', providers: [Shop, Billing], modules });
}

beforeEach(() => {
  calls.charge = 0;
  calls.audit = 0;
  attempt = 0;
});

test('a replay-safe handler passes; its fenced effect runs once and the effect after the last ask once', async () => {
  const kit = await connectTestClient(app(), { answers: yes });
  const run = await kit.callTool('safe');
  expect(run.text).toBe('ch_1 true');
  expect(run.rounds).toBe(3);
  expect(calls).toEqual({ charge: 1, audit: 1 });
  await kit.close();
});

test('a question that changes between runs fails, naming the key and both versions', async () => {
  const kit = await connectTestClient(app(), { answers: yes });
  await expect(kit.callTool('drifting')).rejects.toMatchObject({
    code: -32603,
    message: expect.stringMatching(
      /Replay lint \(tools\/call drifting\): .*not deterministic.*ask "go" "Attempt 1: go on\?".*ask "go" "Attempt 2: go on\?"/,
    ),
  });
  await kit.close();
});

test('a once key that changes between runs fails', async () => {
  const kit = await connectTestClient(app(), { answers: yes });
  await expect(kit.callTool('onceDrift')).rejects.toMatchObject({
    message: expect.stringMatching(/ctx\.once\("step-1"\).*ctx\.once\("step-2"\)/),
  });
  await kit.close();
});

test('an @Effect outside ctx.once in a round that still asks fails, naming the method', async () => {
  const kit = await connectTestClient(app(), { answers: yes });
  await expect(kit.callTool('careless')).rejects.toMatchObject({
    message: expect.stringMatching(/@Effect Billing\.charge ran outside ctx\.once/),
  });
  await kit.close();
});

test("'warn' logs the same findings and lets the call complete", async () => {
  const warnings: string[] = [];
  const logger: ServerLogger = { warn: (m) => warnings.push(m), error: () => undefined };
  const client = await ContextClient.connect({ app: app(logger, 'warn') }, { protocolVersion: '2026-07-28', ...yes });
  const result = await client.callTool('careless', {});
  expect((result.content as Array<{ text: string }>)[0]!.text).toMatch(/^ch_\d+ true$/);
  expect(warnings.join('\n')).toMatch(/@Effect Billing\.charge ran outside ctx\.once/);
  await client.close();
});

test('off (the default outside the kit) runs each round once: nothing reported, effects counted once per run', async () => {
  const warnings: string[] = [];
  const logger: ServerLogger = { warn: (m) => warnings.push(m), error: () => undefined };
  const client = await ContextClient.connect({ app: app(logger) }, { protocolVersion: '2026-07-28', ...yes });
  await client.callTool('careless', {});
  expect(calls.charge).toBe(2); // two rounds, charged on each: the bug the linter reports
  expect(warnings).toEqual([]);
  await client.close();
});

test('the kit can turn it off, and legacy revisions run each handler once anyway', async () => {
  const off = await connectTestClient(app(), { answers: yes, replayLint: false });
  expect((await off.callTool('careless')).text).toMatch(/true$/);
  await off.close();
  const legacy = await connectTestClient(app(), { answers: yes, era: '2025-11-25' });
  calls.charge = 0;
  expect((await legacy.callTool('careless')).text).toBe('ch_1 true');
  expect(calls.charge).toBe(1);
  await legacy.close();
});

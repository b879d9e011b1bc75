/**
 * Run-time changes hold fleet-wide (issue 30): a tool added through nginx is served by every
 * instance, and by an instance started after the change (it replays the change log from Redis);
 * a closure-based addTool in a fleet is refused saying why. Real nginx, three instances, Redis.
 */
import { call, Fleet, type Reply } from './fleet-harness';

jest.setTimeout(180_000);

const text = (r: Reply): string | undefined => r.message?.result?.content?.[0]?.text;

function report(what: string, facts: Record<string, unknown>): void {
  process.stderr.write(`${what}: ${JSON.stringify(facts)}\n`);
}

/** Calls `name` on each instance directly until each answers `expected` (or the deadline passes). */
async function servedByEach(fleet: Fleet, name: string, expected: string): Promise<void> {
  for (const n of [1, 2, 3] as const) {
    // The change reaches the other instances over pub/sub: wait on it, with a deadline as a safety net.
    await fleet.until(`instance ${n} serves ${name}`, async () =>
      text(await call(fleet.instanceUrl(n), { name })) === expected ? true : undefined,
    );
  }
}

describe('conformance fleet', () => {
  let fleet: Fleet;
  beforeAll(async () => {
    fleet = await Fleet.up();
  }, 120_000);
  afterAll(() => fleet?.down(), 60_000);

  test('a tool added through nginx is served by every instance, and by one started later', async () => {
    const before = await call(fleet.instanceUrl(2), { name: 'test_dynamic_tool' });
    expect(JSON.stringify(before.message)).toMatch(/Unknown tool|not found/i);

    expect(text(await call(fleet.url, { name: 'test_trigger_tool_change' }))).toBe('test_dynamic_tool added');
    await servedByEach(fleet, 'test_dynamic_tool', 'dynamic tool says hi');

    // Through nginx, enough calls to reach every instance: none answers "Unknown tool".
    const viaLb = await Promise.all(Array.from({ length: 12 }, () => call(fleet.url, { name: 'test_dynamic_tool' })));
    const served = viaLb.filter((r) => text(r) === 'dynamic tool says hi').length;
    report('run-time tool through nginx', { sent: viaLb.length, served, failed: viaLb.length - served });
    expect(served).toBe(viaLb.length);

    // Instance 3 dies and starts again: it replays the change log before it reports ready.
    await fleet.script('kill', '3');
    await fleet.script('start', '3');
    const restarted = await call(fleet.instanceUrl(3), { name: 'test_dynamic_tool' });
    expect(text(restarted)).toBe('dynamic tool says hi');

    // Removing it holds fleet-wide too, and a later start replays add then remove, in order.
    expect(text(await call(fleet.url, { name: 'test_trigger_tool_change' }))).toBe('test_dynamic_tool removed');
    for (const n of [1, 2, 3] as const) {
      await fleet.until(`instance ${n} no longer serves the tool`, async () => {
        const r = await call(fleet.instanceUrl(n), { name: 'test_dynamic_tool' });
        return text(r) === 'dynamic tool says hi' ? undefined : true;
      });
    }
    await fleet.script('kill', '1');
    await fleet.script('start', '1');
    const gone = await call(fleet.instanceUrl(1), { name: 'test_dynamic_tool' });
    expect(JSON.stringify(gone.message)).toMatch(/Unknown tool|not found/i);
  });
});

describe('sample app fleet', () => {
  let fleet: Fleet;
  beforeAll(async () => {
    fleet = await Fleet.up('sample');
  }, 120_000);
  afterAll(() => fleet?.down(), 60_000);

  test('connect_account through nginx adds loyalty_balance on every instance', async () => {
    const url = { url: {} };
    const args = { programme: 'flying-blue' };
    const first = await call(fleet.url, { name: 'connect_account', arguments: args }, url);
    expect(first.message.result.resultType).toBe('input_required');
    const done = await call(
      fleet.url,
      {
        name: 'connect_account',
        arguments: args,
        requestState: first.message.result.requestState,
        inputResponses: { connect: { action: 'accept' } },
      },
      url,
    );
    expect(text(done)).toBe('Connected flying-blue. A new tool, loyalty_balance, is now available.');
    await servedByEach(fleet, 'loyalty_balance', 'flying-blue: 42 000 miles');
    const viaLb = await Promise.all(Array.from({ length: 9 }, () => call(fleet.url, { name: 'loyalty_balance' })));
    const served = viaLb.filter((r) => text(r) === 'flying-blue: 42 000 miles').length;
    report('connect_account then loyalty_balance through nginx', { sent: viaLb.length, served });
    expect(served).toBe(viaLb.length);
  });
});

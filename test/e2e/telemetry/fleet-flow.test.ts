/**
 * Two instances sharing a requestState key: one flow's rounds on both carry one `mcp.flow.id` and
 * link to the first span, which ran elsewhere. Refused requestState values are counted by reason;
 * open listen streams are counted.
 */
import { randomBytes } from 'node:crypto';
import { IsString } from 'class-validator';
import { Context, ContextClient, MemoryClient, Tool } from '../../../src';
import { makeApp } from '../../helpers/apps';
import { installOtel, pointsOf, spansNamed, type TestOtel } from '../../helpers/otel';

class NameForm {
  @IsString() name!: string;
}
class CityForm {
  @IsString() city!: string;
}

class Trip {
  @Tool({ description: 'Two asks in sequence', forms: [NameForm, CityForm] })
  async trip(ctx: Context) {
    const name = await ctx.elicit(NameForm, 'Your name?', { key: 'user_name' });
    const city = await ctx.elicit(CityForm, 'Where to?', { key: 'city' });
    const n = name.action === 'accept' ? name.content.name : '?';
    return `${n} to ${city.action === 'accept' ? city.content.city : '?'}`;
  }
}

let otel: TestOtel;
beforeAll(() => {
  otel = installOtel();
});
afterAll(() => otel.shutdown());
beforeEach(() => otel.spans.reset());

const key = randomBytes(32);
const a = makeApp([Trip], { requestStateKey: key });
const b = makeApp([Trip], { requestStateKey: key });
const caps = { elicitation: {} };

test('one flow over two instances: one flow id, every later round linked to the first', async () => {
  const onA = await MemoryClient.connect(a, { era: 'modern', capabilities: caps });
  const onB = await MemoryClient.connect(b, { era: 'modern', capabilities: caps });
  const r1 = await onA.request('tools/call', { name: 'trip', arguments: {} });
  const r2 = await onB.request('tools/call', {
    name: 'trip',
    arguments: {},
    requestState: r1.requestState,
    inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } },
  });
  const r3 = await onA.request('tools/call', {
    name: 'trip',
    arguments: {},
    requestState: r2.requestState,
    inputResponses: { city: { action: 'accept', content: { city: 'Oslo' } } },
  });
  expect(r3.content).toEqual([{ type: 'text', text: 'Ada to Oslo' }]);
  const rounds = spansNamed(otel.spans, 'tools/call trip');
  expect(rounds).toHaveLength(3);
  expect(new Set(rounds.map((s) => s.attributes['mcp.flow.id'])).size).toBe(1);
  const first = rounds[0]!.spanContext();
  for (const later of rounds.slice(1)) {
    expect(later.links).toEqual([
      expect.objectContaining({ context: expect.objectContaining({ traceId: first.traceId, spanId: first.spanId }) }),
    ]);
  }
  const metrics = await otel.collect();
  expect(pointsOf(metrics, 'mcp.server.flow.rounds')[0]!.value).toMatchObject({ sum: 3, count: 1 });
});

test('refused requestState values are counted by reason, never with the payload', async () => {
  const client = await MemoryClient.connect(a, { era: 'modern', capabilities: caps });
  const other = await MemoryClient.connect(makeApp([Trip], { requestStateKey: randomBytes(32) }), {
    era: 'modern',
    capabilities: caps,
  });
  const { requestState } = await client.request('tools/call', { name: 'trip', arguments: {} });
  const token = requestState as string;
  const tampered = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
  const tries = [tampered, 'garbage', 42, 'x'.repeat(200_000)];
  for (const state of tries) {
    const reply = await client.raw('tools/call', { name: 'trip', arguments: {}, requestState: state });
    expect(reply).toMatchObject({ error: { code: -32602 } });
  }
  await other.raw('tools/call', { name: 'trip', arguments: {}, requestState: token });
  const metrics = await otel.collect();
  const refusals = pointsOf(metrics, 'mcp.server.request_state.refusals');
  const byReason = Object.fromEntries(
    refusals.map((p) => [p.attributes['mcp.request_state.refusal.reason'], p.value]),
  );
  expect(Object.values(byReason).reduce((n: number, v) => n + (v as number), 0)).toBe(tries.length + 1);
  expect(Object.keys(byReason).sort()).toEqual(expect.arrayContaining(['not_a_string', 'oversize']));
  expect(JSON.stringify(refusals)).not.toContain(token.slice(0, 32));
  // The request still answers after hostile values.
  expect((await client.request('tools/call', { name: 'trip', arguments: {} })).resultType).toBe('input_required');
});

test('open listen streams are counted while open', async () => {
  const client = await ContextClient.connect({ app: a }, { protocolVersion: '2026-07-28' });
  const sub = await client.listen({ toolsListChanged: true });
  await sub.acknowledged;
  const open = pointsOf(await otel.collect(), 'mcp.server.listen.streams')[0]!;
  expect(open.value).toBe(1);
  await sub.close();
  await client.close();
  await new Promise((r) => setTimeout(r, 20));
  expect(pointsOf(await otel.collect(), 'mcp.server.listen.streams')[0]!.value).toBe(0);
});

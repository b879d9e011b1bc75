/**
 * A real fleet (scripts/fleet.sh): Redis, three conformance-server instances sharing one key and
 * RedisModule, and nginx (deploy/nginx.conf) in front. Rounds, exactly-once, notifications and
 * legacy sessions across instances, then faults: a dead instance, a Redis restart, a rolling restart.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { call, Fleet, LegacySession, SseReader, type Reply } from './fleet-harness';
import { modernMeta } from '../../helpers/http-fixtures';

jest.setTimeout(120_000);

let fleet: Fleet;
beforeAll(async () => {
  fleet = await Fleet.up();
}, 120_000);
afterAll(() => fleet?.down(), 60_000);

const yes = { action: 'accept', content: { confirm: true } };
const named = (name: string) => ({ action: 'accept', content: { name } });
const textOf = (r: Reply): string => r.message.result.content[0].text;

/** nginx's error log: its size now, and how many upstream connections it saw reset after that offset. */
const nginxLog = () => join(fleet.dir, 'nginx-error.log');
const nginxLogSize = () => (existsSync(nginxLog()) ? statSync(nginxLog()).size : 0);
function upstreamResetsSince(offset: number): number {
  if (!existsSync(nginxLog())) return 0;
  const text = readFileSync(nginxLog()).subarray(offset).toString('utf8');
  return text.split('\n').filter((line) => /\(104: Connection reset by peer\)|prematurely closed connection/.test(line)).length;
}

/** The three rounds of test_fleet_flow, each sent where `route` says. */
async function threeRounds(route: (round: number) => string) {
  const r1 = await call(route(1), { name: 'test_fleet_flow' });
  expect(r1.message.result.resultType).toBe('input_required');
  const r2 = await call(route(2), {
    name: 'test_fleet_flow',
    requestState: r1.message.result.requestState,
    inputResponses: { go: yes },
  });
  expect(r2.message.result.resultType).toBe('input_required');
  const final = {
    name: 'test_fleet_flow',
    requestState: r2.message.result.requestState,
    inputResponses: { name: named('Ada') },
  };
  const r3 = await call(route(3), final);
  return { r1, r2, r3, final };
}

describe('2026-07-28 flows across instances', () => {
  test('a three-round flow with each round on another instance completes; resent elsewhere it returns the first result', async () => {
    const { r3, final } = await threeRounds((round) => fleet.instanceUrl(round as 1 | 2 | 3));
    expect(textOf(r3)).toMatch(/^pid \d+ run \d+; name Ada$/);
    const resent = await call(fleet.instanceUrl(1), final);
    expect(resent.message.result).toEqual(r3.message.result);
  });

  test('through nginx the rounds are spread over the instances and the flow completes', async () => {
    const upstreams: string[] = [];
    const { r1, r2, r3 } = await threeRounds(() => fleet.url);
    for (const r of [r1, r2, r3]) upstreams.push(String(r.headers['x-upstream-addr']));
    expect(new Set(upstreams).size).toBeGreaterThan(1);
    expect(textOf(r3)).toContain('name Ada');
  });

  test('two parallel copies of the fenced round on two instances run the fenced step once', async () => {
    const r1 = await call(fleet.instanceUrl(1), { name: 'test_fleet_flow' });
    const round2 = {
      name: 'test_fleet_flow',
      requestState: r1.message.result.requestState,
      inputResponses: { go: yes },
    };
    const [a, b] = await Promise.all([call(fleet.instanceUrl(2), round2), call(fleet.instanceUrl(3), round2)]);
    const finish = (r: Reply, url: string) =>
      call(url, {
        name: 'test_fleet_flow',
        requestState: r.message.result.requestState,
        inputResponses: { name: named('Bo') },
      });
    const [fa, fb] = await Promise.all([finish(a, fleet.instanceUrl(1)), finish(b, fleet.instanceUrl(2))]);
    // Both copies saw the same fenced outcome (one instance ran it; the other read its record).
    expect(textOf(fa).split(';')[0]).toBe(textOf(fb).split(';')[0]);
  });
});

describe('notifications across instances', () => {
  test('a tool added on instance 1 reaches a subscriptions/listen stream held on instance 2', async () => {
    const listen = await SseReader.open(fleet.instanceUrl(2), {
      method: 'POST',
      headers: { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'subscriptions/listen' },
      body: {
        jsonrpc: '2.0',
        id: 'l1',
        method: 'subscriptions/listen',
        params: { notifications: { toolsListChanged: true }, _meta: modernMeta() },
      },
    });
    try {
      await listen.next((m) => m.method === 'notifications/subscriptions/acknowledged');
      await call(fleet.instanceUrl(1), { name: 'test_trigger_tool_change' });
      const change = await listen.next((m) => m.method === 'notifications/tools/list_changed');
      expect(change.params._meta['io.modelcontextprotocol/subscriptionId']).toBe('l1');
    } finally {
      listen.close();
    }
  });

  test('a legacy resources/subscribe on instance 2 hears resources/updated for a change made on instance 3', async () => {
    const session = new LegacySession(fleet.instanceUrl(2));
    await session.initialize();
    const uri = 'test://watched-resource';
    expect((await session.request('resources/subscribe', { uri })).message.result).toEqual({});
    const stream = await session.openStream();
    try {
      await new Promise((r) => setTimeout(r, 200)); // the stream is registered once its response began
      await call(fleet.instanceUrl(3), { name: 'test_trigger_resource_update', arguments: { uri } });
      const updated = await stream.next((m) => m.method === 'notifications/resources/updated');
      expect(updated.params).toEqual({ uri });
    } finally {
      stream.close();
    }
  });
});

describe('legacy sessions through nginx', () => {
  test('a session stays on its instance: its id carries the instance tag', async () => {
    const session = new LegacySession(fleet.url);
    await session.initialize({ elicitation: {} });
    expect(session.sessionId).toMatch(/^i[123]\./);
    const reply = (await session.request('tools/list')).message;
    expect(reply.result.tools.map((t: { name: string }) => t.name)).toContain('test_fleet_flow');
  });

  test('the official v1 client: a real ask answered on the session, and a dropped stream resumed with Last-Event-ID', async () => {
    const client = new LegacyClient({ name: 'v1-fleet', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    let asked = 0;
    client.setRequestHandler(ElicitRequestSchema, async () => {
      asked++;
      return { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } };
    });
    const transport = new LegacyTransport(new URL(fleet.url), {
      reconnectionOptions: {
        initialReconnectionDelay: 50,
        maxReconnectionDelay: 200,
        reconnectionDelayGrowFactor: 1,
        maxRetries: 5,
      },
    });
    await client.connect(transport);
    try {
      expect(transport.sessionId).toMatch(/^i[123]\./);
      const asks = await client.callTool({ name: 'test_elicitation', arguments: { message: 'Who are you?' } });
      expect(asked).toBe(1);
      expect(JSON.stringify(asks.content)).toContain('ada@example.com');
      // The tool closes its POST stream mid-call; the client reconnects (GET + Last-Event-ID) through nginx.
      const resumed = await client.callTool({ name: 'test_reconnection', arguments: {} });
      expect(JSON.stringify(resumed.content)).toContain('properly reconnected');
    } finally {
      await client.close();
    }
  });
});

describe('faults', () => {
  test('an instance killed between rounds: the next rounds go to the others and the flow completes', async () => {
    const r1 = await call(fleet.url, { name: 'test_fleet_flow' });
    await fleet.script('kill', '1');
    try {
      const r2 = await call(fleet.url, {
        name: 'test_fleet_flow',
        requestState: r1.message.result.requestState,
        inputResponses: { go: yes },
      });
      const r3 = await call(fleet.url, {
        name: 'test_fleet_flow',
        requestState: r2.message.result.requestState,
        inputResponses: { name: named('Cy') },
      });
      expect(textOf(r3)).toContain('name Cy');
      const completed = [r2, r3].filter((r) => r.status === 200 && r.message?.result).length;
      const report = { sent: 2, completed, failed: 2 - completed };
      process.stderr.write(`instance killed between rounds: ${JSON.stringify(report)}\n`);
      expect(report).toEqual({ sent: 2, completed: 2, failed: 0 });
    } finally {
      await fleet.script('start', '1');
    }
  });

  test('Redis restarted: a flow in progress fails closed with a clear error; flows work again once it is back', async () => {
    const r1 = await call(fleet.instanceUrl(2), { name: 'test_fleet_flow' });
    await fleet.script('redis-stop');
    let during: Reply;
    try {
      during = await call(fleet.instanceUrl(2), {
        name: 'test_fleet_flow',
        requestState: r1.message.result.requestState,
        inputResponses: { go: yes },
      });
    } finally {
      await fleet.script('redis-start');
    }
    expect(during.message.error).toBeDefined();
    expect(during.message.error.message).toMatch(/shared store|Redis/i);
    process.stderr.write(`Redis stopped mid-flow: ${JSON.stringify({ sent: 1, completed: 0, failed: 1, error: during.message.error })}\n`);
    // The client reconnects with backoff: a new flow completes within a few seconds.
    let done = false;
    let attempts = 0;
    for (let i = 0; i < 40 && !done; i++) {
      attempts++;
      try {
        const { r3 } = await threeRounds(() => fleet.instanceUrl(2));
        done = textOf(r3).includes('name Ada');
      } catch {
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    expect(done).toBe(true);
    process.stderr.write(`Redis back: a new three-round flow completed after ${attempts} attempt(s)\n`);
  });

  test('a rolling restart of all three instances under a steady load loses no request (a rare 502 is the listener race, a clear error)', async () => {
    const counts = { sent: 0, completed: 0, failed: 0, reSentAfter503: 0 };
    const failures: string[] = [];
    let stop = false;
    const worker = async () => {
      while (!stop) {
        counts.sent++;
        try {
          const r = await call(fleet.url, { name: 'test_simple_text' });
          if (String(r.headers['x-upstream-addr']).includes(' : ')) counts.reSentAfter503++;
          if (r.status === 200 && r.message?.result) {
            counts.completed++;
          } else {
            counts.failed++;
            failures.push(`${r.status} ${String(r.headers['x-upstream-addr'])} ${r.text.slice(0, 200)}`);
          }
        } catch (e) {
          counts.failed++;
          failures.push(String(e));
        }
      }
    };
    const logAt = nginxLogSize();
    const load = Promise.all([worker(), worker(), worker(), worker()]);
    for (const n of ['1', '2', '3']) {
      await fleet.script('stop', n);
      await fleet.script('start', n);
    }
    stop = true;
    await load;
    const resets = upstreamResetsSince(logAt);
    process.stderr.write(`rolling restart: ${JSON.stringify({ ...counts, resets })}\n`);
    // Nothing is lost: a draining instance's 503 (it ran nothing) is re-sent by nginx to an instance
    // the request has not tried, and a connection is closed only once nginx has stopped using it.
    // The one exception is a clear error, not a loss (docs/deployment.md, "What a drain cannot do"): a
    // connection the kernel accepted for the instance just before it stopped listening is reset, and
    // nginx answers the POST it had sent on it 502 without re-sending it. Rare (2 of 34 637 in the worst
    // run seen, none in most), and each one is in nginx's log as a reset upstream connection.
    const raced = failures.filter((f) => f.startsWith('502 '));
    expect(failures.filter((f) => !f.startsWith('502 '))).toEqual([]);
    expect(raced.length).toBeLessThanOrEqual(5);
    expect(resets).toBeGreaterThanOrEqual(raced.length);
    expect(counts.completed + raced.length).toBe(counts.sent);
    expect(counts.sent).toBeGreaterThan(20);
  });
});

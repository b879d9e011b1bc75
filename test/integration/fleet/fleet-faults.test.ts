/**
 * The fault table of docs/deployment.md ("What happens when an instance or Redis dies"), row by row,
 * on a real fleet (scripts/fleet.sh: Redis with its append-only file, three conformance-server
 * instances, nginx). Each test prints requests sent, completed and failed, and the ledger counts
 * (test_fleet_ledger appends ONCE when its fenced step runs and DONE when its last round runs).
 */
import { randomUUID } from 'node:crypto';
import { call, Fleet, LegacySession, post, SseReader, type Reply } from './fleet-harness';
import { modernMeta } from '../../helpers/http-fixtures';

jest.setTimeout(120_000);

let fleet: Fleet;
beforeAll(async () => {
  fleet = await Fleet.up();
}, 120_000);
afterAll(() => fleet?.down(), 60_000);

const yes = { action: 'accept', content: { confirm: true } };
const named = (name: string) => ({ action: 'accept', content: { name } });
const ok = (r: Reply): boolean => r.status === 200 && r.message?.result !== undefined;

function report(what: string, facts: Record<string, unknown>): void {
  process.stderr.write(`${what}: ${JSON.stringify(facts)}\n`);
}

/** Instance n's readiness body when its status is `status` (else undefined). */
async function readiness(n: 1 | 2 | 3, status: number): Promise<{ status: string } | undefined> {
  const r = await fetch(`http://127.0.0.1:${fleet.instancePorts[n - 1]}/ready`).catch(() => undefined);
  return r?.status === status ? ((await r.json()) as { status: string }) : undefined;
}

/** Round `n` (2 or 3) of test_fleet_ledger after the reply `prev`. */
function nextRound(tag: string, prev: Reply, n: 2 | 3, extra: Record<string, unknown> = {}) {
  return {
    name: 'test_fleet_ledger',
    arguments: { tag, ...extra },
    requestState: prev.message.result.requestState,
    inputResponses: n === 2 ? { go: yes } : { name: named('Ada') },
  };
}

/** What an honest client does: the same request again until it is answered (or `tries` run out). */
async function honestly(
  send: () => Promise<Reply>,
  tries = 60,
): Promise<{ reply: Reply; sent: number; failed: Reply[] }> {
  const failed: Reply[] = [];
  for (let sent = 1; ; sent++) {
    let reply: Reply;
    try {
      reply = await send();
    } catch (e) {
      reply = { status: 0, headers: {}, text: String(e), message: undefined };
    }
    if (ok(reply) || sent >= tries) return { reply, sent, failed };
    failed.push(reply);
    await new Promise((r) => setTimeout(r, 250)); // a client's back-off, not a wait for the server
  }
}

test('kill -9 of the instance running a round after its ctx.once ran: the honest retry takes the flow over; ONCE = 1, DONE = 1', async () => {
  const tag = `kill-${randomUUID()}`;
  const args = { tag, hangAfterOnce: true };
  const r1 = await call(fleet.url, { name: 'test_fleet_ledger', arguments: args });
  expect(r1.message.result.resultType).toBe('input_required');
  const round2 = nextRound(tag, r1, 2, { hangAfterOnce: true });
  const inFlight = call(fleet.url, round2);
  const pid = await fleet.until('the fenced step ran and the round hangs', () => fleet.ledger(tag).HANG[0]);
  const n = fleet.instanceOfPid(pid);
  process.kill(Number(pid), 'SIGKILL');
  const killedAt = Date.now();
  try {
    // nginx does not re-send a POST that reached the dead instance: the client sees the failure.
    const cut = await inFlight;
    expect(ok(cut)).toBe(false);
    const retried = await honestly(() => call(fleet.url, round2));
    const tookOverMs = Date.now() - killedAt;
    expect(retried.reply.message.result.resultType).toBe('input_required');
    const r3 = await honestly(() => call(fleet.url, nextRound(tag, retried.reply, 3, { hangAfterOnce: true })));
    expect(r3.reply.message.result.content[0].text).toBe(`done ${tag}; name Ada`);
    const counts = { ONCE: fleet.ledger(tag).ONCE.length, DONE: fleet.ledger(tag).DONE.length };
    const sent = 2 + retried.sent + r3.sent;
    report('kill -9 after ctx.once', {
      sent,
      completed: 3,
      failed: sent - 3,
      cut: cut.status,
      retryCompletedAfterMs: tookOverMs,
      ...counts,
    });
    expect(counts).toEqual({ ONCE: 1, DONE: 1 });
    // The bound (15 s) as a safety net, not a timing assertion: the lease is 5 s.
    expect(tookOverMs).toBeLessThan(15_000);
  } finally {
    await fleet.script('start', String(n));
  }
});

test('Redis stopped for 5 s under a steady load of flows: no flow completes twice, no round whose code ran is refused', async () => {
  const counts = { flows: 0, sent: 0, completed: 0, failed: 0, refusedAfterRun: 0 };
  const tags: string[] = [];
  let stop = false;
  const send = async (params: Record<string, unknown>, tag: string, last: boolean): Promise<Reply> => {
    for (;;) {
      const doneBefore = last ? fleet.ledger(tag).DONE.length : 0;
      counts.sent++;
      const r = await call(fleet.url, params).catch(
        (e: unknown): Reply => ({ status: 0, headers: {}, text: String(e), message: undefined }),
      );
      if (ok(r)) return counts.completed++, r;
      counts.failed++;
      if (last && fleet.ledger(tag).DONE.length > doneBefore) counts.refusedAfterRun++;
      await new Promise((res) => setTimeout(res, 250)); // the client's back-off
    }
  };
  const worker = async (): Promise<void> => {
    while (!stop) {
      const tag = `redis-${randomUUID()}`;
      tags.push(tag);
      counts.flows++;
      const r1 = await send({ name: 'test_fleet_ledger', arguments: { tag } }, tag, false);
      const r2 = await send(nextRound(tag, r1, 2), tag, false);
      await send(nextRound(tag, r2, 3), tag, true);
    }
  };
  const load = Promise.all([worker(), worker(), worker(), worker()]);
  await fleet.until('a few flows ran', () => (counts.completed > 12 ? true : undefined));
  await fleet.script('redis-stop');
  const stoppedAt = Date.now();
  // Readiness tells the truth: not ready while the shared store is unreachable.
  const during = await fleet.until('readiness says the store is unreachable', () => readiness(1, 503));
  const fiveSeconds = () => (Date.now() - stoppedAt >= 5000 ? true : undefined);
  await fleet.until('5 s passed with Redis stopped', fiveSeconds, 10_000);
  await fleet.script('redis-start');
  await fleet.until('readiness is back', () => readiness(1, 200));
  expect(during.status).toBe('store-unreachable');
  const completedAtRestart = counts.completed;
  const again = () => (counts.completed > completedAtRestart + 12 ? true : undefined);
  await fleet.until('flows complete again', again, 60_000);
  stop = true;
  await load;
  const twice = tags.filter((t) => fleet.ledger(t).DONE.length > 1);
  const onceTwice = tags.filter((t) => fleet.ledger(t).ONCE.length > 1);
  report('Redis stopped 5 s under load', { ...counts, doubleCompletions: twice.length, doubleOnces: onceTwice.length });
  expect(twice).toEqual([]);
  expect(onceTwice).toEqual([]);
  expect(counts.refusedAfterRun).toBe(0);
  expect(counts.failed).toBeGreaterThan(0); // the outage was real
});

test('a legacy ask pending at SIGTERM: the draining instance serves the answer and the call completes', async () => {
  const session = new LegacySession(fleet.url);
  await session.initialize({ elicitation: {} });
  const n = Number(/^i([123])\./.exec(session.sessionId)![1]);
  const stream = await SseReader.open(fleet.url, {
    method: 'POST',
    headers: session.headers(),
    body: {
      jsonrpc: '2.0',
      id: 'call-1',
      method: 'tools/call',
      params: { name: 'test_elicitation', arguments: { message: 'Who?' } },
    },
  });
  const ask = await stream.next((m) => m.method === 'elicitation/create');
  const stopping = fleet.script('stop', String(n));
  try {
    // Draining: the instance's readiness says so, and a new session goes elsewhere.
    await fleet.until('the instance drains', () => readiness(n as 1 | 2 | 3, 503));
    const content = { username: 'ada', email: 'ada@example.com' };
    const answer = await post(
      fleet.url,
      { jsonrpc: '2.0', id: ask.id, result: { action: 'accept', content } },
      session.headers(),
    );
    expect(answer.status).toBe(202);
    const done = await stream.next((m) => m.id === 'call-1');
    report('legacy ask pending at SIGTERM', { sent: 2, completed: done.result ? 1 : 0, answerStatus: answer.status });
    expect(JSON.stringify(done.result.content)).toContain('ada@example.com');
  } finally {
    stream.close();
    await stopping;
    await fleet.script('start', String(n));
  }
});

/** A legacy session on the instance `n`, with a call waiting on the client's answer to its ask. */
async function pendingAskOn(n: number): Promise<{ session: LegacySession; stream: SseReader; ask: any }> {
  for (let tries = 0; tries < 60; tries++) {
    const session = new LegacySession(fleet.url);
    await session.initialize({ elicitation: {} });
    if (!session.sessionId.startsWith(`i${n}.`)) continue;
    const body = {
      jsonrpc: '2.0',
      id: `call-${n}`,
      method: 'tools/call',
      params: { name: 'test_elicitation', arguments: { message: 'Who?' } },
    };
    const stream = await SseReader.open(fleet.url, { method: 'POST', headers: session.headers(), body });
    return { session, stream, ask: await stream.next((m) => m.method === 'elicitation/create') };
  }
  throw new Error(`no session landed on instance ${n}`);
}

test('two instances draining at once (each finishing a legacy ask): every new request through nginx is served by the third', async () => {
  // A pending ask keeps a draining instance accepting connections (its answer may come on a new
  // one), so it answers new work with 503: nginx must re-send each such request to an instance it
  // has not tried, never to a draining one again.
  const held = [await pendingAskOn(1), await pendingAskOn(2)];
  const stopping = [fleet.script('stop', '1'), fleet.script('stop', '2')];
  try {
    const bothDrain = async () => ((await readiness(1, 503)) && (await readiness(2, 503)) ? true : undefined);
    await fleet.until('both drain', bothDrain);
    const counts = { sent: 0, completed: 0, failed: 0, reSentAfter503: 0 };
    const failures: string[] = [];
    const worker = async (): Promise<void> => {
      for (let i = 0; i < 40; i++) {
        counts.sent++;
        const r = await call(fleet.url, { name: 'test_simple_text' });
        if (ok(r)) {
          counts.completed++;
        } else {
          counts.failed++;
          failures.push(`${r.status} ${r.text.slice(0, 200)}`);
        }
        if (String(r.headers['x-upstream-addr']).includes(' : ')) counts.reSentAfter503++;
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    report('two instances draining', counts);
    expect(failures).toEqual([]);
    expect(counts.reSentAfter503).toBeGreaterThan(0); // the draining instances did get (and refuse) requests
    for (const { session, stream, ask } of held) {
      const content = { username: 'ada', email: 'ada@example.com' };
      const reply = { jsonrpc: '2.0', id: ask.id, result: { action: 'accept', content } };
      const answer = await post(fleet.url, reply, session.headers());
      expect(answer.status).toBe(202);
      const done = await stream.next((m) => typeof m.id === 'string' && m.id.startsWith('call-'));
      expect(JSON.stringify(done.result.content)).toContain('ada@example.com');
    }
  } finally {
    for (const { stream } of held) stream.close();
    await Promise.all(stopping);
    await fleet.script('start', '1');
    await fleet.script('start', '2');
  }
});

/** A 2026 request of a client that declared the tasks extension, through nginx. */
let taskIds = 0;
async function taskRequest(method: string, params: Record<string, unknown>, name: string): Promise<any> {
  const meta = modernMeta({
    'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } },
  });
  const r = await post(
    fleet.url,
    { jsonrpc: '2.0', id: `t${++taskIds}`, method, params: { ...params, _meta: meta } },
    { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': method, 'Mcp-Name': name },
  );
  return r.message;
}

async function taskStatus(taskId: string): Promise<any> {
  return (await taskRequest('tasks/get', { taskId }, taskId)).result;
}

describe.each([
  ['SIGTERM', 'stop'],
  ['kill -9', 'kill'],
])('%s of the instance running a task round', (label, command) => {
  test('another instance resumes the task from its record: it completes, the fenced step ran once', async () => {
    const tag = `task-${command}-${randomUUID()}`;
    const params = { name: 'test_fleet_task', arguments: { tag, hangAfterOnce: true } };
    const created = await taskRequest('tools/call', params, 'test_fleet_task');
    const taskId = created.result.taskId as string;
    expect(created.result.resultType).toBe('task');
    const asks = async () => ((await taskStatus(taskId))?.status === 'input_required' ? true : undefined);
    await fleet.until('the task asks', asks);
    await taskRequest('tasks/update', { taskId, inputResponses: { go: yes } }, taskId);
    const pid = await fleet.until('the round runs its fenced step and hangs', () => fleet.ledger(tag).HANG[0]);
    const n = fleet.instanceOfPid(pid);
    const stoppedAt = Date.now();
    await fleet.script(command, String(n));
    try {
      const polls = { sent: 0 };
      const final = await fleet.until(
        'the task ends',
        async () => {
          polls.sent++;
          const t = await taskStatus(taskId).catch(() => undefined);
          return t && ['completed', 'failed', 'cancelled'].includes(t.status) ? t : undefined;
        },
        30_000,
      );
      const counts = { ONCE: fleet.ledger(tag).ONCE.length, DONE: fleet.ledger(tag).DONE.length };
      const endedAfterMs = Date.now() - stoppedAt;
      report(`task round, ${label}`, { polls: polls.sent, status: final.status, endedAfterMs, ...counts });
      expect(final.status).toBe('completed');
      expect(final.result.content[0].text).toBe(`done ${tag}`);
      expect(counts).toEqual({ ONCE: 1, DONE: 1 });
    } finally {
      await fleet.script('start', String(n));
    }
  });
});

/** The 2026 input-round driver, through ContextClient on a scripted transport. */
import { getEventListeners } from 'node:events';
import {
  callInfo,
  ContextClient,
  MaxInputRoundsError,
  MissingInputHandlerError,
  type ContextClientInit,
} from '../../../src';
import { driveInputRounds } from '../../../src/client/mrtr-driver';
import { complete, elicit, FakeTransport, type Script } from './fake-transport';

const accept = { elicitation: () => ({ action: 'accept' as const, content: { name: 'Ada' } }) };

async function clientWith(script: Script, options: ContextClientInit = accept) {
  const transport = new FakeTransport(script);
  const client = await ContextClient.connect({ transport }, { protocolVersion: '2026-07-28', ...options });
  return { client, transport };
}

// JSON escapes, unicode and padding: a client that re-serialises would change it.
const STATE = 'eyJhIjoxfQ==.\u00e9\u4e16\\"quoted\\" {"k": 1}  ';

test('retries with a new id, this round’s answers and the byte-exact requestState', async () => {
  const { client, transport } = await clientWith((_r, i) =>
    i === 0
      ? { result: { resultType: 'input_required', inputRequests: { user_name: elicit() }, requestState: STATE } }
      : complete('hi Ada'),
  );
  const result = await client.callTool('greet', { who: 'x' });
  const [first, second] = transport.calls;
  expect(second!.id).not.toBe(first!.id);
  expect(second!.params).toMatchObject({
    name: 'greet',
    arguments: { who: 'x' },
    inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } },
  });
  expect(second!.params!.requestState).toBe(STATE);
  expect(first!.params).not.toHaveProperty('inputResponses');
  expect(result.content).toEqual([{ type: 'text', text: 'hi Ada' }]);
  expect(callInfo(result)).toEqual({ rounds: 2, asks: 1, era: 'modern' });
});

test('sends no requestState when the server gave none', async () => {
  const { client, transport } = await clientWith((_r, i) =>
    i === 0 ? { result: { resultType: 'input_required', inputRequests: { user_name: elicit() } } } : complete(),
  );
  await client.callTool('t');
  expect(transport.calls[1]!.params).not.toHaveProperty('requestState');
  expect(transport.calls[1]!.params).toHaveProperty('inputResponses');
});

test('carries only the latest round’s inputResponses', async () => {
  const { client, transport } = await clientWith((_r, i) => {
    if (i === 0)
      return { result: { resultType: 'input_required', inputRequests: { a: elicit('A?') }, requestState: 's1' } };
    if (i === 1)
      return { result: { resultType: 'input_required', inputRequests: { b: elicit('B?') }, requestState: 's2' } };
    return complete();
  });
  const result = await client.callTool('t');
  expect(Object.keys(transport.calls[1]!.params!.inputResponses as object)).toEqual(['a']);
  expect(Object.keys(transport.calls[2]!.params!.inputResponses as object)).toEqual(['b']);
  expect(transport.calls[2]!.params!.requestState).toBe('s2');
  expect(new Set(transport.calls.map((c) => c.id)).size).toBe(3);
  expect(callInfo(result)?.rounds).toBe(3);
});

test('a missing resultType means complete: no retry', async () => {
  const { client, transport } = await clientWith(() => ({ result: { content: [{ type: 'text', text: 'plain' }] } }));
  await client.callTool('t');
  expect(transport.calls).toHaveLength(1);
});

test('a requestState-only round is retried after the backoff, with the state and no inputResponses', async () => {
  const sleeps: number[] = [];
  let n = 0;
  const sent: Record<string, unknown>[] = [];
  const out = await driveInputRounds({
    method: 'tools/call',
    params: { name: 't' },
    maxInputRounds: 8,
    stateOnlyBackoffMs: 250,
    sleep: async (ms) => void sleeps.push(ms),
    send: async (p) => (
      sent.push(p),
      n++ === 0 ? { resultType: 'input_required', requestState: 'busy' } : { resultType: 'complete' }
    ),
    answer: async () => ({}),
  });
  expect(sleeps).toEqual([250]);
  expect(sent[1]).toEqual({ name: 't', requestState: 'busy' });
  expect(out).toMatchObject({ rounds: 2, asks: 0 });
});

test('gives up after maxInputRounds with a typed error naming the round and the keys', async () => {
  const { client, transport } = await clientWith(
    () => ({ result: { resultType: 'input_required', inputRequests: { again: elicit() }, requestState: 'x' } }),
    {
      ...accept,
      maxInputRounds: 3,
    },
  );
  const error = await client.callTool('loop').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(MaxInputRoundsError);
  expect(error).toMatchObject({ code: 'OMC_CLIENT_MAX_ROUNDS', round: 4, pendingKeys: ['again'] });
  expect((error as Error).message).toMatch(/round 4.*again.*3 answered rounds/);
  expect(transport.calls).toHaveLength(4);
});

test('manual mode hands the input_required result back', async () => {
  const { client, transport } = await clientWith(() => ({
    result: { resultType: 'input_required', inputRequests: { user_name: elicit() }, requestState: 's' },
  }));
  const result = (await client.callTool('t', {}, { manual: true })) as unknown as Record<string, unknown>;
  expect(result.resultType).toBe('input_required');
  expect(result.requestState).toBe('s');
  expect(transport.calls).toHaveLength(1);
});

test('an ask without a handler is a typed error and nothing is retried', async () => {
  const { client, transport } = await clientWith(() => ({
    result: {
      resultType: 'input_required',
      inputRequests: { model: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } } },
    },
  }));
  const error = await client.callTool('t').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(MissingInputHandlerError);
  expect(error).toMatchObject({
    code: 'OMC_CLIENT_NO_HANDLER',
    inputMethod: 'sampling/createMessage',
    handler: 'sampling',
    key: 'model',
  });
  expect(transport.calls).toHaveLength(1);
});

test('answers every ask of a round in parallel', async () => {
  const started: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const { client } = await clientWith(
    (_r, i) =>
      i === 0
        ? {
            result: {
              resultType: 'input_required',
              inputRequests: { a: elicit('A'), b: elicit('B'), r: { method: 'roots/list', params: {} } },
            },
          }
        : complete(),
    {
      elicitation: async (p) => {
        started.push(p.message);
        await gate;
        return { action: 'accept', content: { name: p.message } };
      },
      roots: async () => (started.push('roots'), await gate, [{ uri: 'file:///x' }]),
    },
  );
  const call = client.callTool('t');
  await new Promise((r) => setTimeout(r, 5));
  expect(started.sort()).toEqual(['A', 'B', 'roots']); // all three began before any finished
  release();
  expect(callInfo(await call)).toMatchObject({ rounds: 2, asks: 3 });
});

test('the handler gets the input-request key', async () => {
  const keys: (string | undefined)[] = [];
  const { client } = await clientWith(
    (_r, i) =>
      i === 0 ? { result: { resultType: 'input_required', inputRequests: { user_name: elicit() } } } : complete(),
    {
      elicitation: (_p, ctx) => (keys.push(ctx.key), { action: 'decline' }),
    },
  );
  await client.callTool('t');
  expect(keys).toEqual(['user_name']);
});

test('prompts/get and resources/read use the same driver', async () => {
  const { client, transport } = await clientWith((r, i) =>
    i % 2 === 0
      ? { result: { resultType: 'input_required', inputRequests: { user_name: elicit() } } }
      : {
          result:
            r.method === 'prompts/get'
              ? { resultType: 'complete', messages: [] }
              : { resultType: 'complete', contents: [] },
        },
  );
  await client.getPrompt('p');
  await client.readResource('x://r');
  expect(transport.calls.map((c) => c.method)).toEqual([
    'prompts/get',
    'prompts/get',
    'resources/read',
    'resources/read',
  ]);
});

test('requestState-only rounds leave no listener on the signal they waited on (the client’s, by default)', async () => {
  // Every second answer is a requestState-only round: the driver waits stateOnlyBackoffMs before retrying.
  const { client } = await clientWith(
    (_r, i) => (i % 2 === 0 ? { result: { resultType: 'input_required', requestState: 's' } } : complete('done')),
    { stateOnlyBackoffMs: 0 },
  );
  const caller = new AbortController();
  const closed = (client as unknown as { session: { closedSignal: AbortSignal } }).session.closedSignal;
  for (let i = 0; i < 50; i++) {
    expect((await client.callTool('t', {})).content).toEqual([{ type: 'text', text: 'done' }]);
    await client.callTool('t', {}, { signal: caller.signal });
  }
  expect(getEventListeners(closed, 'abort')).toHaveLength(0);
  expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  await client.close();
});

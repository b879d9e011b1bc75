/** SEP-2322 `input-required-result-*` (A1–A15) round by round, and the same tools on a legacy session. */
import { randomBytes } from 'node:crypto';
import { createConformanceApp } from '../../../conformance/app';
import type { MemoryClient } from '../../../src';
import { accept, legacyClient, modernClient, ROOTS_ANSWER, SAMPLING_ANSWER } from './harness';

const app = createConformanceApp({ requestStateKey: randomBytes(32).toString('base64url') });

const NAME_FORM = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
const OK_FORM = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };
const elicit = (message: string, requestedSchema: object) => ({
  method: 'elicitation/create',
  params: { mode: 'form', message, requestedSchema },
});
const sampling = (text: string, maxTokens: number) => ({
  method: 'sampling/createMessage',
  params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens },
});

let client: MemoryClient;
beforeEach(async () => {
  client = await modernClient(app);
});
const call = (name: string, extra: Record<string, unknown> = {}) =>
  client.request('tools/call', { name, arguments: {}, ...extra });
const rawCall = (name: string, extra: Record<string, unknown> = {}) =>
  client.raw('tools/call', { name, arguments: {}, ...extra });

describe('A1 basic elicitation (+ A10 result type)', () => {
  it('round 1 asks user_name with an explicit resultType; round 2 completes', async () => {
    const r1 = await call('test_input_required_result_elicitation');
    expect(r1.resultType).toBe('input_required');
    expect(r1.inputRequests).toEqual({ user_name: elicit('What is your name?', NAME_FORM) });
    expect(typeof r1.requestState).toBe('string');
    const r2 = await call('test_input_required_result_elicitation', {
      inputResponses: { user_name: accept({ name: 'Alice' }) },
      requestState: r1.requestState,
    });
    expect(r2).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Hello, Alice!' }] });
  });

  it('A14: completes on user_name alone, without requestState, ignoring extra keys', async () => {
    const r = await call('test_input_required_result_elicitation', {
      inputResponses: {
        user_name: accept({ name: 'Alice' }),
        unknown_extra_key: { foo: 'bar' },
        another_unexpected: 42,
      },
    });
    expect(r).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Hello, Alice!' }] });
  });

  it('A7: a wrong key gets the question again, not an error', async () => {
    const r = await call('test_input_required_result_elicitation', {
      inputResponses: { wrong_key: accept({ name: 'Alice' }) },
    });
    expect(r).toMatchObject({
      resultType: 'input_required',
      inputRequests: { user_name: elicit('What is your name?', NAME_FORM) },
    });
  });

  it('A15: an invalid answer or inputResponses null is never a complete result', async () => {
    for (const inputResponses of [{ user_name: 12345 }, null]) {
      const r = await rawCall('test_input_required_result_elicitation', { inputResponses });
      if ('result' in r) expect(r.result.resultType).toBe('input_required');
    }
  });

  it('A11: list methods never answer input_required', async () => {
    for (const method of ['tools/list', 'prompts/list'])
      expect((await client.request(method)).resultType).toBe('complete');
  });
});

describe('A2 sampling, A3 roots', () => {
  it('A2: capital_question, then complete', async () => {
    const r1 = await call('test_input_required_result_sampling');
    expect(r1.inputRequests).toEqual({ capital_question: sampling('What is the capital of France?', 100) });
    const r2 = await call('test_input_required_result_sampling', {
      inputResponses: { capital_question: { ...SAMPLING_ANSWER, content: { type: 'text', text: 'Paris' } } },
      requestState: r1.requestState,
    });
    expect(r2).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'The model answered: Paris' }],
    });
  });

  it('A3: client_roots, then complete', async () => {
    const r1 = await call('test_input_required_result_list_roots');
    expect(r1.inputRequests).toEqual({ client_roots: { method: 'roots/list', params: {} } });
    const r2 = await call('test_input_required_result_list_roots', {
      inputResponses: { client_roots: ROOTS_ANSWER },
      requestState: r1.requestState,
    });
    expect(r2).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'Client roots: file:///test/root' }],
    });
  });
});

describe('A4 request state, A12 tampering', () => {
  it('A4: confirm + requestState; the answer round finds its state (state-ok)', async () => {
    const r1 = await call('test_input_required_result_request_state');
    expect(r1.inputRequests).toEqual({ confirm: elicit('Please confirm', OK_FORM) });
    expect(typeof r1.requestState).toBe('string');
    const r2 = await call('test_input_required_result_request_state', {
      inputResponses: { confirm: accept({ ok: true }) },
      requestState: r1.requestState,
    });
    expect(r2).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'state-ok: confirmed=true' }] });
  });

  it('A4: an answer without the state is not taken for state-ok', async () => {
    const r = await call('test_input_required_result_request_state', {
      inputResponses: { confirm: accept({ ok: true }) },
    });
    expect(r.content).toEqual([{ type: 'text', text: 'state-missing: confirmed=true' }]);
  });

  it('A12: requestState + "-TAMPERED" is a -32602 error, the handler never runs', async () => {
    const r1 = await call('test_input_required_result_tampered_state');
    expect(r1.inputRequests).toEqual({ confirm: elicit('Please confirm', OK_FORM) });
    const r2 = await rawCall('test_input_required_result_tampered_state', {
      inputResponses: { confirm: accept({ ok: true }) },
      requestState: `${r1.requestState as string}-TAMPERED`,
    });
    expect('error' in r2 && r2.error).toMatchObject({
      code: -32602,
      message: 'Invalid or expired requestState',
      data: { reason: 'invalid_request_state' },
    });
  });

  it('a state minted for other arguments is refused (bound to a digest of the params)', async () => {
    const r1 = await call('test_sampling', { arguments: { prompt: 'a' } });
    const r2 = await rawCall('test_sampling', {
      arguments: { prompt: 'b' },
      inputResponses: { llm_response: SAMPLING_ANSWER },
      requestState: r1.requestState,
    });
    expect('error' in r2 && r2.error.code).toBe(-32602);
  });

  it('A12: a state minted for another tool is refused too', async () => {
    const r1 = await call('test_input_required_result_request_state');
    const r2 = await rawCall('test_input_required_result_tampered_state', {
      inputResponses: { confirm: accept({ ok: true }) },
      requestState: r1.requestState,
    });
    expect('error' in r2 && r2.error.code).toBe(-32602);
  });
});

describe('A5 multiple inputs, A6 multi round', () => {
  it('A5: user_name, greeting and client_roots in one round, then complete', async () => {
    const r1 = await call('test_input_required_result_multiple_inputs');
    expect(r1.inputRequests).toEqual({
      user_name: elicit('What is your name?', NAME_FORM),
      greeting: sampling('Generate a greeting', 50),
      client_roots: { method: 'roots/list', params: {} },
    });
    expect(typeof r1.requestState).toBe('string');
    const r2 = await call('test_input_required_result_multiple_inputs', {
      inputResponses: {
        user_name: accept({ name: 'Alice' }),
        greeting: { ...SAMPLING_ANSWER, content: { type: 'text', text: 'Good morning' } },
        client_roots: ROOTS_ANSWER,
      },
      requestState: r1.requestState,
    });
    expect(r2).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'Good morning, Alice! Roots: 1.' }],
    });
  });

  it('A5: a partial answer re-asks only what is missing', async () => {
    const r1 = await call('test_input_required_result_multiple_inputs');
    const r2 = await call('test_input_required_result_multiple_inputs', {
      inputResponses: { user_name: accept({ name: 'Alice' }) },
      requestState: r1.requestState,
    });
    expect(r2.resultType).toBe('input_required');
    expect(Object.keys(r2.inputRequests as object).sort()).toEqual(['client_roots', 'greeting']);
  });

  it('A6: an answer that fails the form is asked again, not accepted', async () => {
    const r1 = await call('test_input_required_result_multi_round');
    const r2 = await call('test_input_required_result_multi_round', {
      inputResponses: { step1: accept({ name: 'Alice' }) },
      requestState: r1.requestState,
    });
    const r3 = await call('test_input_required_result_multi_round', {
      inputResponses: { step2: accept({ colour: 'blue' }) },
      requestState: r2.requestState,
    });
    expect(r3.resultType).toBe('input_required');
    expect(Object.keys(r3.inputRequests as object)).toEqual(['step2']);
  });

  it('A6: step1, then step2 with a new requestState, then complete', async () => {
    const r1 = await call('test_input_required_result_multi_round');
    expect(r1.inputRequests).toEqual({ step1: elicit('Step 1: What is your name?', NAME_FORM) });
    const r2 = await call('test_input_required_result_multi_round', {
      inputResponses: { step1: accept({ name: 'Alice' }) },
      requestState: r1.requestState,
    });
    expect(r2.inputRequests).toEqual({
      step2: elicit('Step 2: What is your favorite color?', {
        type: 'object',
        properties: { color: { type: 'string' } },
        required: ['color'],
      }),
    });
    expect(typeof r2.requestState).toBe('string');
    expect(r2.requestState).not.toBe(r1.requestState);
    const r3 = await call('test_input_required_result_multi_round', {
      inputResponses: { step2: accept({ color: 'blue' }) },
      requestState: r2.requestState,
    });
    expect(r3).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Alice likes blue.' }] });
  });
});

describe('A9 prompt, A13 capabilities', () => {
  it('A9: prompts/get asks user_context, then returns messages', async () => {
    const r1 = await client.request('prompts/get', { name: 'test_input_required_result_prompt' });
    expect(r1).toMatchObject({
      resultType: 'input_required',
      inputRequests: {
        user_context: elicit('What context should the prompt use?', {
          type: 'object',
          properties: { context: { type: 'string' } },
          required: ['context'],
        }),
      },
    });
    const r2 = await client.request('prompts/get', {
      name: 'test_input_required_result_prompt',
      inputResponses: { user_context: accept({ context: 'test context' }) },
      requestState: r1.requestState,
    });
    expect(r2).toMatchObject({
      resultType: 'complete',
      messages: [{ role: 'user', content: { type: 'text', text: 'Answer using this context: test context' } }],
    });
  });

  it('A13: a sampling-only client gets only sampling requests', async () => {
    const samplingOnly = await modernClient(app, { sampling: {} });
    const r = await samplingOnly.request('tools/call', {
      name: 'test_input_required_result_capabilities',
      arguments: {},
    });
    expect(r).toMatchObject({
      resultType: 'input_required',
      inputRequests: { capital_question: sampling('What is the capital of France?', 100) },
    });
    expect(Object.values(r.inputRequests as Record<string, { method: string }>).map((q) => q.method)).toEqual([
      'sampling/createMessage',
    ]);
  });

  it('A13: a client with both asks is asked its name first, then the model', async () => {
    const r1 = await call('test_input_required_result_capabilities');
    expect(Object.keys(r1.inputRequests as object)).toEqual(['user_name']);
    const r2 = await call('test_input_required_result_capabilities', {
      inputResponses: { user_name: accept({ name: 'Alice' }) },
      requestState: r1.requestState,
    });
    expect(Object.keys(r2.inputRequests as object)).toEqual(['capital_question']);
    const r3 = await call('test_input_required_result_capabilities', {
      inputResponses: { capital_question: { ...SAMPLING_ANSWER, content: { type: 'text', text: 'Paris' } } },
      requestState: r2.requestState,
    });
    expect(r3.content).toEqual([{ type: 'text', text: 'Answered with name=Alice, model=Paris' }]);
  });

  it('A13: a client with neither completes without asking', async () => {
    const none = await modernClient(app, {});
    const r = await none.request('tools/call', { name: 'test_input_required_result_capabilities', arguments: {} });
    expect(r).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'The client declared neither elicitation nor sampling.' }],
    });
  });
});

describe('the MRTR tools on a legacy session: one run, real requests', () => {
  it('multiple inputs: three requests answered, one result', async () => {
    const { client: legacy, asked } = await legacyClient(app, accept({ name: 'Bob' }));
    const r = await legacy.request('tools/call', { name: 'test_input_required_result_multiple_inputs', arguments: {} });
    expect(asked.map((a) => a.method).sort()).toEqual(['elicitation/create', 'roots/list', 'sampling/createMessage']);
    expect(r.content).toEqual([{ type: 'text', text: 'This is a test response from the client, Bob! Roots: 1.' }]);
    expect(r.resultType).toBeUndefined();
  });

  it('request state: state-ok without a requestState round trip', async () => {
    const { client: legacy } = await legacyClient(app, accept({ ok: true }));
    const r = await legacy.request('tools/call', { name: 'test_input_required_result_request_state', arguments: {} });
    expect(r.content).toEqual([{ type: 'text', text: 'state-ok: confirmed=true' }]);
  });

  it('multi round: two elicitations in sequence', async () => {
    const answers = [accept({ name: 'Bob' }), accept({ color: 'green' })];
    const { MemoryClient } = await import('../../../src');
    const legacy = await MemoryClient.connect(app, {
      era: 'legacy',
      capabilities: { elicitation: {} },
      handlers: { 'elicitation/create': () => answers.shift() },
    });
    const r = await legacy.request('tools/call', { name: 'test_input_required_result_multi_round', arguments: {} });
    expect(r.content).toEqual([{ type: 'text', text: 'Bob likes green.' }]);
  });

  it('prompt: asks, then returns messages', async () => {
    const { client: legacy } = await legacyClient(app, accept({ context: 'legacy context' }));
    const r = await legacy.request('prompts/get', { name: 'test_input_required_result_prompt' });
    expect(r.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Answer using this context: legacy context' } },
    ]);
  });
});

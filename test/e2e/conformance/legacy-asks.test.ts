/**
 * 2025-11-25 ask scenarios (sampling, elicitation, SEP-1034, SEP-1330): real server→client requests
 * on a session; the same handlers answer input_required on 2026-07-28.
 */
import { createConformanceApp } from '../../../conformance/app';
import { accept, legacyClient, modernClient, SAMPLING_ANSWER } from './harness';

const app = createConformanceApp();

const DEFAULTS_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'User name', default: 'John Doe' },
    age: { type: 'integer', description: 'User age', default: 30 },
    score: { type: 'number', description: 'User score', default: 95.5 },
    status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean', description: 'Verification status', default: true },
  },
};

const ENUMS_SCHEMA = {
  type: 'object',
  properties: {
    untitledSingle: { type: 'string', description: 'Select one option', enum: ['option1', 'option2', 'option3'] },
    titledSingle: {
      type: 'string',
      description: 'Select one option with titles',
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' },
      ],
    },
    legacyEnum: {
      type: 'string',
      description: 'Select one option (legacy)',
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'],
    },
    untitledMulti: {
      type: 'array',
      description: 'Select multiple options',
      items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
      minItems: 1,
      maxItems: 3,
    },
    titledMulti: {
      type: 'array',
      description: 'Select multiple options with titles',
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' },
        ],
      },
      minItems: 1,
      maxItems: 3,
    },
  },
};

describe('legacy (2025-11-25) asks are real requests', () => {
  it('test_sampling sends sampling/createMessage {prompt, maxTokens 100} and echoes the reply', async () => {
    const { client, asked } = await legacyClient(app);
    const r = await client.request('tools/call', {
      name: 'test_sampling',
      arguments: { prompt: 'Test prompt for sampling' },
    });
    expect(asked).toEqual([
      {
        method: 'sampling/createMessage',
        params: {
          messages: [{ role: 'user', content: { type: 'text', text: 'Test prompt for sampling' } }],
          maxTokens: 100,
        },
      },
    ]);
    expect(r.content).toEqual([{ type: 'text', text: 'LLM response: This is a test response from the client' }]);
  });

  it('test_elicitation sends the username/email form and reports the answer', async () => {
    const { client, asked } = await legacyClient(app);
    const r = await client.request('tools/call', {
      name: 'test_elicitation',
      arguments: { message: 'Please provide your information' },
    });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.method).toBe('elicitation/create');
    expect(asked[0]!.params).toEqual({
      mode: 'form',
      message: 'Please provide your information',
      requestedSchema: {
        type: 'object',
        properties: {
          username: { type: 'string', description: "User's response" },
          email: { type: 'string', description: "User's email address", format: 'email' },
        },
        required: ['username', 'email'],
      },
    });
    expect(r.content).toEqual([
      {
        type: 'text',
        text: 'User response: action=accept, content={"username":"testuser","email":"test@example.com"}',
      },
    ]);
  });

  it('test_elicitation reports a decline', async () => {
    const { client } = await legacyClient(app, { action: 'decline' });
    const r = await client.request('tools/call', { name: 'test_elicitation', arguments: { message: 'm' } });
    expect(r.content).toEqual([{ type: 'text', text: 'User response: action=decline, content={}' }]);
  });

  it('test_elicitation_sep1034_defaults sends a default on every primitive', async () => {
    const answer = accept({ name: 'Jane Smith', age: 25, score: 88, status: 'inactive', verified: false });
    const { client, asked } = await legacyClient(app, answer);
    const r = await client.request('tools/call', { name: 'test_elicitation_sep1034_defaults', arguments: {} });
    expect(JSON.stringify(asked[0]!.params.requestedSchema)).toBe(JSON.stringify(DEFAULTS_SCHEMA));
    expect(asked[0]!.params.message).toBe('Please review and update the form fields with defaults');
    expect(r.content).toEqual([
      {
        type: 'text',
        text: 'Elicitation completed: action=accept, content={"name":"Jane Smith","age":25,"score":88,"status":"inactive","verified":false}',
      },
    ]);
  });

  it('test_elicitation_sep1330_enums sends the five enum shapes', async () => {
    const answer = accept({
      untitledSingle: 'option1',
      titledSingle: 'value1',
      legacyEnum: 'opt1',
      untitledMulti: ['option1', 'option2'],
      titledMulti: ['value1', 'value2'],
    });
    const { client, asked } = await legacyClient(app, answer);
    const r = await client.request('tools/call', { name: 'test_elicitation_sep1330_enums', arguments: {} });
    expect(JSON.stringify(asked[0]!.params.requestedSchema)).toBe(JSON.stringify(ENUMS_SCHEMA));
    expect((r.content as Array<{ text: string }>)[0]!.text).toBe(
      'Elicitation completed: action=accept, content={"untitledSingle":"option1","titledSingle":"value1","legacyEnum":"opt1","untitledMulti":["option1","option2"],"titledMulti":["value1","value2"]}',
    );
  });
});

describe('the same ask tools on 2026-07-28 answer input_required', () => {
  it('test_sampling: one round with the llm_response key', async () => {
    const client = await modernClient(app);
    const args = { prompt: 'Test prompt for sampling' };
    const r1 = await client.request('tools/call', { name: 'test_sampling', arguments: args });
    expect(r1).toMatchObject({
      resultType: 'input_required',
      inputRequests: {
        llm_response: {
          method: 'sampling/createMessage',
          params: {
            messages: [{ role: 'user', content: { type: 'text', text: 'Test prompt for sampling' } }],
            maxTokens: 100,
          },
        },
      },
    });
    const r2 = await client.request('tools/call', {
      name: 'test_sampling',
      arguments: args,
      inputResponses: { llm_response: SAMPLING_ANSWER },
      requestState: r1.requestState,
    });
    expect(r2).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'LLM response: This is a test response from the client' }],
    });
  });

  it('test_elicitation_sep1034_defaults: the form rides in inputRequests, an empty accept takes the defaults', async () => {
    const client = await modernClient(app);
    const r1 = await client.request('tools/call', { name: 'test_elicitation_sep1034_defaults', arguments: {} });
    const ask = (r1.inputRequests as Record<string, { params: { requestedSchema: unknown } }>).defaults!;
    expect(JSON.stringify(ask.params.requestedSchema)).toBe(JSON.stringify(DEFAULTS_SCHEMA));
    const r2 = await client.request('tools/call', {
      name: 'test_elicitation_sep1034_defaults',
      arguments: {},
      inputResponses: { defaults: accept({}) },
      requestState: r1.requestState,
    });
    expect(r2.content).toEqual([
      {
        type: 'text',
        text: 'Elicitation completed: action=accept, content={"name":"John Doe","age":30,"score":95.5,"status":"active","verified":true}',
      },
    ]);
  });
});

/** ContextClient against our own app in memory, under both eras: the same calls, the same answers. */
import { callInfo, ContextClient, type ContextClientInit } from '../../../src';
import { fixtureApp } from './fixture-app';

const handlers: ContextClientInit = {
  elicitation: (params) => ({
    action: 'accept',
    content: (params.message === 'Where to?' ? { city: 'Paris' } : { name: 'Ada' }) as Record<string, string>,
  }),
  sampling: () => ({ role: 'assistant', content: { type: 'text', text: 'short' }, model: 'test-model' }),
  roots: () => [{ uri: 'file:///work' }],
};

describe.each([
  ['2026-07-28', 'modern', 2],
  ['2025-11-25', 'legacy', 1],
] as const)('in memory, %s', (protocolVersion, era, roundsForOneAsk) => {
  let client: ContextClient;
  beforeAll(async () => {
    client = await ContextClient.connect({ app: fixtureApp() }, { ...handlers, protocolVersion });
  });
  afterAll(() => client.close());

  test('negotiates the era and describes the server', () => {
    expect(client.era).toBe(era);
    expect(client.protocolVersion).toBe(protocolVersion);
    expect(client.server.serverInfo).toMatchObject({ name: 'client-fixture' });
  });

  test('lists tools, prompts and resources', async () => {
    expect((await client.listTools()).map((t) => t.name)).toEqual(
      expect.arrayContaining(['echo', 'greet', 'trip', 'summarize']),
    );
    expect((await client.listPrompts()).map((p) => p.name)).toContain('hello');
    expect((await client.listResources()).map((r) => r.uri)).toContain('fixture://readme');
  });

  test('calls a plain tool in one round', async () => {
    const result = await client.callTool('echo', { text: 'hi' });
    expect(result.content).toEqual([{ type: 'text', text: 'hi' }]);
    expect(callInfo(result)).toMatchObject({ rounds: 1, asks: 0, era });
  });

  test('answers an elicitation through the handler', async () => {
    const result = await client.callTool('greet', { text: 'x' });
    expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    expect(callInfo(result)).toMatchObject({ rounds: roundsForOneAsk, asks: 1 });
  });

  test('answers two asks in sequence', async () => {
    const result = await client.callTool('trip', { text: 'x' });
    expect(result.content).toEqual([{ type: 'text', text: 'Ada goes to Paris' }]);
    expect(callInfo(result)?.asks).toBe(2);
  });

  test('answers sampling and roots', async () => {
    const result = await client.callTool('summarize', { text: 'x' });
    expect(result.content).toEqual([{ type: 'text', text: 'short @ file:///work' }]);
  });

  test('a prompt that asks', async () => {
    const result = await client.getPrompt('hello');
    expect(JSON.stringify(result.messages)).toContain('Hello Ada');
  });

  test('reads a resource', async () => {
    const result = await client.readResource('fixture://readme');
    expect(result.contents[0]).toMatchObject({ uri: 'fixture://readme', text: 'read me' });
  });

  test('reports progress to the per-call callback', async () => {
    const seen: number[] = [];
    await client.callTool('slow', { text: 'x' }, { onProgress: (p) => seen.push(p.progress) });
    await new Promise((r) => setTimeout(r, 10));
    expect(seen).toEqual([1, 2]);
  });

  test('protocol errors keep code and data', async () => {
    await expect(client.callTool('nope', {})).rejects.toMatchObject({ name: 'ProtocolError', code: -32602 });
  });
});

test('auto prefers 2026-07-28 in memory', async () => {
  const client = await ContextClient.connect({ app: fixtureApp() });
  expect(client.era).toBe('modern');
  await client.close();
});

test('options are validated once and frozen', async () => {
  await expect(ContextClient.connect({ app: fixtureApp() }, { maxInputRounds: 0 })).rejects.toThrow(/maxInputRounds/);
  await expect(
    ContextClient.connect({ app: fixtureApp() }, { protocolVersion: '1999-01-01' as never }),
  ).rejects.toThrow(/protocolVersion/);
  const client = await ContextClient.connect({ app: fixtureApp() });
  expect(Object.isFrozen(client.options)).toBe(true);
  expect(client.options.maxInputRounds).toBe(8);
  await client.close();
});

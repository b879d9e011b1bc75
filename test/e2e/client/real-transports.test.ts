/** ContextClient against our own app over real Streamable HTTP (serveHttp) and stdio, both eras. */
import { ContextClient, callInfo, serveHttp, type HttpServerHandle } from '../../../src';
import { builtEntry } from '../../helpers/built-app';
import { fixtureApp } from './fixture-app';

const answers = { elicitation: () => ({ action: 'accept' as const, content: { name: 'Ada' } }) };

describe.each(['2026-07-28', '2025-11-25'] as const)('our HTTP transport, %s', (protocolVersion) => {
  let server: HttpServerHandle;
  let client: ContextClient;
  beforeAll(async () => {
    server = await serveHttp(fixtureApp(), { port: 0, host: '127.0.0.1' });
    client = await ContextClient.connect({ url: server.url }, { ...answers, protocolVersion });
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  test('asks, progress and errors over the wire', async () => {
    expect(client.protocolVersion).toBe(protocolVersion);
    const greet = await client.callTool('greet', { text: 'x' });
    expect(greet.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    expect(callInfo(greet)?.asks).toBe(1);
    const seen: number[] = [];
    await client.callTool('slow', { text: 'x' }, { onProgress: (p) => seen.push(p.progress) });
    expect(seen).toEqual([1, 2]);
    await expect(client.callTool('missing', {})).rejects.toMatchObject({ name: 'ProtocolError', code: -32602 });
  });
});

test('auto picks 2026-07-28 against our dual-era HTTP endpoint', async () => {
  const server = await serveHttp(fixtureApp(), { port: 0, host: '127.0.0.1' });
  const client = await ContextClient.connect({ url: server.url });
  expect(client.era).toBe('modern');
  await client.close();
  await server.close();
});

describe.each(['auto', '2025-11-25'] as const)('stdio (the built sample app), %s', (protocolVersion) => {
  test('spawns, negotiates, lists, calls, and shuts the process down', async () => {
    const entry = builtEntry('sample-app/src/main.js');
    const client = await ContextClient.connect(
      { command: process.execPath, args: [entry, '--stdio'], stderr: 'collect' },
      // The sample answers server/discover; a busy machine may take seconds to start it, which the
      // default 5 s probe would read as a server that never answers (legacy).
      { protocolVersion, probeTimeoutMs: 60_000 },
    );
    expect(client.era).toBe(protocolVersion === 'auto' ? 'modern' : 'legacy');
    expect((await client.listTools()).map((t) => t.name)).toContain('search_flights');
    const result = await client.callTool('search_flights', { from: 'AMS', to: 'BCN' });
    expect(JSON.stringify(result.structuredContent)).toContain('AMS-BCN-100');
    await client.close();
  });
});

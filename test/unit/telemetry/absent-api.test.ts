/**
 * `@opentelemetry/api` is an optional peer: with the package absent the framework loads, serves
 * both eras, our client sends requests, and the access log (which needs no API) still writes.
 */
jest.mock('@opentelemetry/api', () => {
  throw Object.assign(new Error("Cannot find module '@opentelemetry/api'"), { code: 'MODULE_NOT_FOUND' });
});

import { ContextClient, ContextServerModule, McpApplication, Tool } from '../../../src';
import { otelApi } from '../../../src/telemetry/otel-api';

class Echo {
  @Tool({ description: 'Echo' })
  echo() {
    return 'hi';
  }
}

test('no API: requests run, the client sends, the access log writes', async () => {
  expect(otelApi()).toBeUndefined();
  const lines: unknown[] = [];
  const info = (m: string, d?: unknown) => lines.push([m, d]);
  const logger = { warn: () => undefined, error: () => undefined, info };
  const app = McpApplication.create({
    name: 'no-otel',
    version: '1.0.0',
    providers: [Echo],
    modules: [ContextServerModule.configure({ logger, telemetry: { accessLog: true } })],
  });
  for (const protocolVersion of ['2026-07-28', '2025-11-25'] as const) {
    const client = await ContextClient.connect({ app }, { protocolVersion });
    expect((await client.callTool('echo', {})).content).toEqual([{ type: 'text', text: 'hi' }]);
    await client.close();
  }
  expect(lines).toContainEqual([
    'mcp request',
    expect.objectContaining({ method: 'tools/call', target: 'echo', era: 'modern', outcome: 'ok' }),
  ]);
  expect(lines).toContainEqual(['mcp request', expect.objectContaining({ method: 'tools/call', era: 'legacy' })]);
});

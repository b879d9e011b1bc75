/**
 * `onemodelcontext bridge --max-list-items <n>`: the installed command, over stdio, in front of an
 * upstream with more tools than the default cap (1000) keeps them all when told to, and keeps 1000
 * (reporting the cut) when not. Needs `npm run build`.
 */
import 'reflect-metadata';
import { join } from 'node:path';
import { ContextClient, ContextServerModule, McpApplication } from '../../../src';
import { silentLogger } from '../../../src/server/core/server-logger';
import { serveHttp, type HttpServerHandle } from '../../../src/transports/http';

jest.setTimeout(90_000);

const BIN = join(__dirname, '../../../bin/onemodelcontext.js');
const TOOLS = 1200;

let upstream: HttpServerHandle;
beforeAll(async () => {
  const app = McpApplication.create({
    name: 'many-tools',
    version: '1.0.0',
    providers: [],
    modules: [ContextServerModule.configure({ logger: silentLogger })],
  });
  for (let i = 0; i < TOOLS; i++) app.addTool({ name: `t${i}`, description: `tool ${i}`, handler: () => `t${i}` });
  upstream = await serveHttp(app, { port: 0 });
});
afterAll(() => upstream.close({ deadlineMs: 1000 }));

async function toolsThroughCli(extra: string[]): Promise<{ names: string[]; stderr: string }> {
  const client = await ContextClient.connect(
    { command: process.execPath, args: [BIN, 'bridge', '--stdio', '--url', upstream.url, ...extra], stderr: 'collect' },
    { protocolVersion: '2026-07-28' },
  );
  try {
    const names = (await client.listTools()).map((t) => t.name);
    const transport = client.transport as { stderrText?: string };
    return { names, stderr: transport.stderrText ?? '' };
  } finally {
    await client.close();
  }
}

test('--max-list-items raises the cap: every upstream tool is mounted', async () => {
  const { names, stderr } = await toolsThroughCli(['--max-list-items', '5000']);
  expect(names).toHaveLength(TOOLS);
  expect(names).toContain(`t${TOOLS - 1}`);
  expect(stderr).not.toMatch(/was cut/);
});

test('without it the default cap holds: 1000 kept, the rest dropped and reported', async () => {
  const { names, stderr } = await toolsThroughCli([]);
  expect(names).toHaveLength(1000);
  expect(stderr).toMatch(/tools list was cut at 1000 items \(maxListItems\)/);
});

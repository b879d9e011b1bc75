/** An ephemeral requestState key is fine on loopback, and warned about when HTTP listens beyond it. */
import { randomBytes } from 'node:crypto';
import { ContextServerModule, McpApplication, MemoryFlowStore, serveHttp, Tool } from '../../../../src';
import { recordingLogger } from '../../../helpers/apps';

class T {
  @Tool({ description: 'x' }) x() {
    return 'x';
  }
}

async function warningsFor(host: string, requestStateKey?: string, flowStore?: MemoryFlowStore) {
  const logger = recordingLogger();
  const app = McpApplication.create({
    name: 'w',
    version: '1',
    providers: [T],
    modules: [ContextServerModule.configure({ logger, requestStateKey, flowStore })],
  });
  const server = await serveHttp(app, { host, port: 0, dangerouslyAllowAnyHost: host !== '127.0.0.1' });
  await server.close({ deadlineMs: 500 });
  return logger.lines.map((l) => l.message);
}

test('warns for an ephemeral key beyond loopback only', async () => {
  expect(await warningsFor('127.0.0.1')).toEqual([]);
  expect((await warningsFor('0.0.0.0')).join('\n')).toMatch(/ephemeral per-process key/);
  expect((await warningsFor('0.0.0.0', randomBytes(32).toString('base64url'))).join('\n')).not.toMatch(/ephemeral/);
});

test('a configured key with the in-memory flow store says exactly-once holds per instance only', async () => {
  const key = randomBytes(32).toString('base64url');
  expect(await warningsFor('127.0.0.1', key)).toEqual([expect.stringMatching(/^exactly-once holds per instance only/)]);
  // A store passed in is taken to be shared: nothing to say.
  expect(await warningsFor('127.0.0.1', key, new MemoryFlowStore())).toEqual([]);
  expect(await warningsFor('127.0.0.1')).toEqual([]);
});

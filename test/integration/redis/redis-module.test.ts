/**
 * RedisModule wired into McpApplication against a real redis-server: two apps (two instances)
 * share exactly-once records and notifications; start-up fails clearly when Redis is unreachable;
 * bad options are refused at configure time.
 */
import { randomBytes } from 'node:crypto';
import { Context, ContextServerModule, FrameworkError, McpApplication, Tool, serveHttp } from '../../../src';
import { RedisModule } from '../../../src/redis';
import { silentLogger } from '../../../src/server/core/server-logger';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server';
import { modernPost, replyOf } from '../../helpers/http-fixtures';

let ran = 0;
class Fenced {
  @Tool({ description: 'confirm, then a fenced step' })
  async fenced(ctx: Context) {
    if (!(await ctx.confirm('Go?', { key: 'go' }))) return 'stopped';
    return ctx.once('step', () => `run ${++ran}`);
  }
}

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(() => redis?.dispose());

const key = randomBytes(32);
function instance(url: string, keyPrefix: string): McpApplication {
  return McpApplication.create({
    name: 'redis-module',
    version: '1.0.0',
    providers: [Fenced],
    modules: [
      ContextServerModule.configure({ logger: silentLogger, requestStateKey: key }),
      RedisModule.configure({ url, keyPrefix, connectTimeoutMs: 1000, commandTimeoutMs: 500 }),
    ],
  });
}

test('two instances on one Redis: a flow started on A and finished on B, resent to A, runs the fenced step once', async () => {
  const prefix = `t${Date.now()}:`;
  const [a, b] = [instance(redis.url, prefix), instance(redis.url, prefix)];
  const [sa, sb] = await Promise.all([serveHttp(a, { port: 0 }), serveHttp(b, { port: 0 })]);
  try {
    const meta = { _meta: { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } } };
    const r1 = replyOf(await modernPost(sa.url, 1, 'tools/call', { name: 'fenced', arguments: {}, ...meta }));
    const yes = { action: 'accept', content: { confirm: true } };
    const { requestState } = r1.result;
    const round2 = { name: 'fenced', arguments: {}, requestState, inputResponses: { go: yes }, ...meta };
    const before = ran;
    const onB = replyOf(await modernPost(sb.url, 2, 'tools/call', round2));
    const resentOnA = replyOf(await modernPost(sa.url, 3, 'tools/call', round2));
    expect(resentOnA.result).toEqual(onB.result);
    expect(ran).toBe(before + 1);
  } finally {
    await Promise.all([sa.close({ deadlineMs: 500 }), sb.close({ deadlineMs: 500 })]);
    await Promise.all([a.close(), b.close()]);
  }
});

test('an unreachable Redis stops serveHttp at start-up, saying where and why', async () => {
  const app = instance('redis://127.0.0.1:1', 'x:');
  await expect(serveHttp(app, { port: 0 })).rejects.toThrow(/Redis at 127\.0\.0\.1:1 is unreachable/);
  await app.close();
});

test.each([
  [{ url: 'http://127.0.0.1:6379' }, /url/],
  [{ url: 'redis://127.0.0.1:6379', commandTimout: 5 }, /commandTimout.*commandTimeoutMs/s],
  [{ url: 'redis://127.0.0.1:6379', commandTimeoutMs: 0 }, /commandTimeoutMs/],
])('RedisModule.configure(%j) is refused', (options, message) => {
  let error: unknown;
  try {
    RedisModule.configure(options as never);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(FrameworkError);
  expect(String((error as Error).message)).toMatch(message);
});

/**
 * Loaded inside a test runner's sandbox (jest runs each test file in a vm context of its own, with its
 * own globals), the built package runs in that sandbox, not in Node's main context: its classes,
 * errors and promises are the test's own, and it sees the `Reflect` that reflect-metadata patched
 * there. The bytecode cache (dist/cjs/code-cache.js) compiles in Node's main context, so it steps
 * aside when loaded from another one.
 */
import 'reflect-metadata';
import { join } from 'node:path';

const dist = join(__dirname, '..', '..', '..', 'dist', 'cjs');

test('a jest test that requires the CommonJS build gets the sandbox\'s classes and its Reflect', async () => {
  const omc = require(join(dist, 'index.js')) as typeof import('../../../src/index');
  class Tools {
    ping(): string { return 'pong'; }
  }
  const ping = Object.getOwnPropertyDescriptor(Tools.prototype, 'ping')!;
  Reflect.defineMetadata('design:paramtypes', [], Tools.prototype, 'ping');
  omc.Tool({ description: 'ping' })(Tools.prototype, 'ping', ping);
  const app = omc.McpApplication.create({ name: 'realm', version: '1.0.0', providers: [Tools] });
  const client = await omc.connectTestClient(app);
  try {
    const run = await client.callTool('ping', {});
    expect(run.text).toBe('pong');
    expect(run.result).toBeInstanceOf(Object);
    expect(run.result.content).toBeInstanceOf(Array);
  } finally {
    await client.close();
  }
  let thrown: unknown;
  try {
    omc.McpApplication.create({ name: 'realm', version: '1.0.0', providers: [], nope: 1 } as never);
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBeInstanceOf(Error);
});

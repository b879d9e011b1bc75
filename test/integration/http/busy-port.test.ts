/** serveHttp on a port another server holds fails with a message naming the port and what to do. */
import { McpApplication, Tool } from '../../../src';
import { serveHttp } from '../../../src/transports/http';

class Ping {
  @Tool({ description: 'pong' })
  ping() {
    return 'pong';
  }
}

test('a busy port is OMC_TRANSPORT naming host:port, with the EADDRINUSE as cause', async () => {
  const app = McpApplication.create({ name: 'busy', version: '1.0.0', providers: [Ping] });
  const first = await serveHttp(app, { port: 0, host: '127.0.0.1' });
  try {
    const error = await serveHttp(app, { port: first.port, host: '127.0.0.1' }).catch((e: unknown) => e);
    expect(String(error)).toMatch(
      new RegExp(`OMC_TRANSPORT.*127\\.0\\.0\\.1:${first.port} is already in use .*pick another port`),
    );
    expect((error as { cause?: { code?: string } }).cause?.code).toBe('EADDRINUSE');
  } finally {
    await first.close();
  }
});

/**
 * A draining server's connections. Behind a proxy that keeps upstream connections alive, closing an
 * idle connection races the proxy's next request on it (nginx answers that POST with 502). So while
 * draining every answer closes its connection — a held session's too, not only new work's 503 — and
 * only connections idle since before the drain are closed, after the quiet time.
 */
import { ContextClient } from '../../../src';
import { serveHttp } from '../../../src/transports/http';
import { makeApp, modernPost, RawLegacyClient } from '../../helpers/http-fixtures';

test('while draining, a held session’s answers and new work’s 503 both close their connection; the drain then ends', async () => {
  const server = await serveHttp(makeApp(), { port: 0, host: '127.0.0.1', drainQuietMs: 200 });
  const raw = new RawLegacyClient(server.url);
  await raw.initialize();
  const before = await raw.call(1, 'tools/list');
  expect(before.headers.connection).toBe('keep-alive');

  // A call in flight that ends only when the test answers it: the drain waits for it, and meanwhile
  // the server keeps accepting for the sessions it holds.
  let asked!: () => void;
  const questionArrived = new Promise<void>((resolve) => (asked = resolve));
  let answer!: (name: string) => void;
  const answered = new Promise<string>((resolve) => (answer = resolve));
  const client = await ContextClient.connect(
    { url: server.url },
    {
      protocolVersion: '2025-11-25',
      elicitation: async () => {
        asked();
        return { action: 'accept', content: { name: await answered } };
      },
    },
  );
  try {
    const call = client.callTool('greet', { text: 'x' });
    await questionArrived;
    const closing = server.close({ deadlineMs: 120_000 });

    const held = await raw.call(2, 'tools/list');
    expect(held.status).toBe(200);
    expect(held.headers.connection).toBe('close');
    const fresh = await modernPost(server.url, 3, 'tools/list');
    expect(fresh.status).toBe(503);
    expect(fresh.headers.connection).toBe('close');

    answer('Ada');
    expect(JSON.stringify(await call)).toContain('Hello, Ada');
    // A deadline far beyond the test's timeout: the drain ends on its own once the call is answered.
    await closing;
  } finally {
    await client.close().catch(() => undefined);
    await server.close({ deadlineMs: 1000 });
  }
});

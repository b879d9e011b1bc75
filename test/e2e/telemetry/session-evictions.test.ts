/** `mcp.server.legacy.session_evictions`: each session a full pool evicts to make room is counted, by pool. */
import { serveHttp } from '../../../src/transports/http';
import { makeApp, RawLegacyClient } from '../../helpers/http-fixtures';
import { installOtel, pointsOf, type TestOtel } from '../../helpers/otel';

let otel: TestOtel;
beforeAll(() => {
  otel = installOtel();
});
afterAll(() => otel.shutdown());

test('three sessions past a full anonymous pool of two: three evictions counted under pool=anonymous', async () => {
  const server = await serveHttp(makeApp(), { port: 0, maxAnonymousSessions: 2, sessionEvictionMinIdleMs: 0 });
  try {
    for (let n = 0; n < 5; n++) expect((await new RawLegacyClient(server.url).initialize()).status).toBe(200);
    const points = pointsOf(await otel.collect(), 'mcp.server.legacy.session_evictions', {
      'mcp.session.pool': 'anonymous',
    });
    expect(points.map((p) => p.value)).toEqual([3]);
  } finally {
    await server.close({ deadlineMs: 1000 });
  }
});

/**
 * Legacy-session quotas across a fleet: two HTTP instances sharing one lease counter. A principal's
 * share, the anonymous bucket and maxSessions count every instance's sessions (429/503 as the
 * local refusals); DELETE gives the slot back to the fleet; a counter that cannot answer is a 503
 * with the unavailable-store message.
 */
import {
  ContextServerModule,
  McpApplication,
  serveHttp,
  type HttpOptions,
  type HttpServerHandle,
} from '../../../../src';
import { ErrorCode } from '../../../../src/protocol/error-codes';
import { defineModule } from '../../../../src/config/modules';
import { SHARED_STORES, type SharedStores } from '../../../../src/server/fleet/shared-stores';
import { silentLogger } from '../../../../src/server/core/server-logger';
import type { LeaseCounter } from '../../../../src/state/lease-counter';
import { MemoryLeaseCounter } from '../../../../src/state/memory-lease-counter';
import { StoreUnavailableError } from '../../../../src/state/store-unavailable';
import { RawLegacyClient, rawRequest, TestTools } from '../../../helpers/http-fixtures';

const byHeader = ({ headers }: { headers?: Record<string, unknown> }) =>
  typeof headers?.['x-user'] === 'string' ? { id: headers['x-user'] } : undefined;

function serve(leases: LeaseCounter, http: Partial<HttpOptions> = {}): Promise<HttpServerHandle> {
  const stores: SharedStores = { leases, ready: async () => undefined, close: async () => undefined };
  const app = McpApplication.create({
    name: 'fleet-sessions',
    version: '1.0.0',
    providers: [TestTools],
    modules: [
      ContextServerModule.configure({ logger: silentLogger, authenticate: byHeader as never }),
      defineModule(SHARED_STORES, stores),
    ],
  });
  return serveHttp(app, {
    port: 0,
    maxSessions: 4,
    maxSessionsPerPrincipal: 2,
    maxAnonymousSessions: 1,
    sessionEvictionMinIdleMs: 60_000,
    ...http,
  });
}

describe('two instances on one lease counter', () => {
  const leases = new MemoryLeaseCounter();
  let a: HttpServerHandle;
  let b: HttpServerHandle;
  beforeAll(async () => {
    [a, b] = await Promise.all([serve(leases), serve(leases)]);
  });
  afterAll(async () => {
    await Promise.all([a.close({ deadlineMs: 1000 }), b.close({ deadlineMs: 1000 })]);
  });

  const open = async (on: HttpServerHandle, user?: string) => {
    const c = new RawLegacyClient(on.url, '2025-11-25', user ? { 'X-User': user } : {});
    return { c, r: await c.initialize() };
  };

  test('per principal, anonymous and total caps count both instances; DELETE frees a slot fleet-wide', async () => {
    const first = await open(a, 'mallory');
    expect(first.r.status).toBe(200);
    expect((await open(b, 'mallory')).r.status).toBe(200);
    const over = await open(b, 'mallory'); // one session on B: fine locally, her third in the fleet
    expect(over.r.status).toBe(429);
    expect(over.r.json().error.message).toContain('maxSessionsPerPrincipal');
    expect(over.r.headers['mcp-session-id']).toBeUndefined();

    expect((await open(a)).r.status).toBe(200);
    const anon = await open(b);
    expect(anon.r.status).toBe(429);
    expect(anon.r.json().error.message).toContain('maxAnonymousSessions');

    expect((await open(b, 'alice')).r.status).toBe(200); // the fleet's 4th session
    const full = await open(a, 'bob');
    expect(full.r.status).toBe(503);
    expect(full.r.json().error.message).toContain('(maxSessions)');
    expect(full.r.json().error.code).toBe(ErrorCode.TooManySessions);
    expect(Number(full.r.headers['retry-after'])).toBeGreaterThan(0);

    expect((await rawRequest(a.url, { method: 'DELETE', headers: first.c.headers() })).status).toBe(200);
    expect((await open(b, 'bob')).r.status).toBe(200);
  });
});

describe('a full fleet-wide pool makes room', () => {
  const leases = new MemoryLeaseCounter();
  let a: HttpServerHandle;
  let b: HttpServerHandle;
  beforeAll(async () => {
    const pools = { maxSessions: 10, maxAnonymousSessions: 2, sessionEvictionMinIdleMs: 0 };
    [a, b] = await Promise.all([serve(leases, pools), serve(leases, pools)]);
  });
  afterAll(async () => {
    await Promise.all([a.close({ deadlineMs: 1000 }), b.close({ deadlineMs: 1000 })]);
  });

  const ping = (c: RawLegacyClient) => c.call('p', 'ping').then((r) => r.status);

  test('the instance a newcomer lands on evicts its own idlest session of the pool; the evicted one is 404 everywhere', async () => {
    const onA = new RawLegacyClient(a.url);
    const onB = new RawLegacyClient(b.url);
    expect((await onA.initialize()).status).toBe(200);
    expect((await onB.initialize()).status).toBe(200); // the fleet's anonymous pool is full
    const newcomer = new RawLegacyClient(a.url);
    expect((await newcomer.initialize()).status).toBe(200); // A evicted its own idle session
    expect(await ping(onA)).toBe(404);
    const elsewhere = new RawLegacyClient(b.url);
    elsewhere.sessionId = onA.sessionId;
    expect(await ping(elsewhere)).toBe(404);
    expect(await ping(onB)).toBe(200);
    expect(await ping(newcomer)).toBe(200);
  });
});

test('a lease counter that cannot answer: initialize is a 503 with the unavailable-store message', async () => {
  const failing: LeaseCounter = {
    acquire: async () => {
      throw new StoreUnavailableError('Redis at 127.0.0.1:1 is unreachable');
    },
    renew: async () => false,
    release: async () => undefined,
  };
  const server = await serve(failing);
  try {
    const r = await new RawLegacyClient(server.url).initialize();
    expect(r.status).toBe(503);
    expect(r.json().error.message).toBe(StoreUnavailableError.clientMessage);
    expect(r.headers['mcp-session-id']).toBeUndefined();
  } finally {
    await server.close({ deadlineMs: 1000 });
  }
});

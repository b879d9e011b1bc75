/**
 * Listen-stream quotas across a fleet: two applications ("instances") sharing one lease counter
 * count each other's streams. A stream over a fleet-wide cap is acknowledged, then ended with the
 * error a local refusal gives; a store that cannot answer ends it with the unavailable-store
 * message; a closed stream gives its slot back to the whole fleet.
 */
import { ContextServerModule, McpApplication } from '../../../../src';
import { defineModule } from '../../../../src/config/modules';
import type { JsonRpcMessage } from '../../../../src/protocol/jsonrpc';
import { SHARED_STORES, type SharedStores } from '../../../../src/server/fleet/shared-stores';
import { silentLogger } from '../../../../src/server/core/server-logger';
import type { LeaseCounter } from '../../../../src/state/lease-counter';
import { MemoryLeaseCounter } from '../../../../src/state/memory-lease-counter';
import { StoreUnavailableError } from '../../../../src/state/store-unavailable';
import { MessageConnection } from '../../../../src/transports/message-connection';
import { modernMeta, TestTools, waitFor } from '../../../helpers/http-fixtures';

const LIMITS = { maxListenStreams: 3, maxListenStreamsPerPrincipal: 2, maxAnonymousListenStreams: 1 };

function instance(leases: LeaseCounter): McpApplication {
  const stores: SharedStores = { leases, ready: async () => undefined, close: async () => undefined };
  return McpApplication.create({
    name: 'fleet-listen',
    version: '1.0.0',
    providers: [TestTools],
    modules: [ContextServerModule.configure({ logger: silentLogger, ...LIMITS }), defineModule(SHARED_STORES, stores)],
  });
}

/** One client connection (a principal, or none) to an instance; `sent` is what it received. */
function connect(app: McpApplication, principal?: string) {
  const sent: JsonRpcMessage[] = [];
  const conn = new MessageConnection(app.endpoint, (m) => sent.push(...(Array.isArray(m) ? m : [m])), {
    principal: principal === undefined ? undefined : { id: principal },
  });
  const byId = (id: number) => sent.filter((m) => 'id' in m && m.id === id);
  const acked = (id: number) =>
    sent.some(
      (m) =>
        'method' in m &&
        m.method === 'notifications/subscriptions/acknowledged' &&
        (m.params?._meta as Record<string, unknown>)['io.modelcontextprotocol/subscriptionId'] === id,
    );
  return {
    conn,
    open: (id: number) =>
      conn.receiveValue({
        jsonrpc: '2.0',
        id,
        method: 'subscriptions/listen',
        params: { _meta: modernMeta(), notifications: { toolsListChanged: true } },
      }),
    cancel: (id: number) =>
      conn.receiveValue({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } }),
    acked,
    ended: (id: number) => byId(id)[0],
  };
}

test('two instances on one lease counter: per-principal, anonymous and total caps count the fleet', async () => {
  const leases = new MemoryLeaseCounter();
  const [a, b] = [instance(leases), instance(leases)];
  const aliceA = connect(a, 'alice');
  const aliceB = connect(b, 'alice');
  aliceA.open(1);
  aliceB.open(2);
  await waitFor(() => aliceA.acked(1) && aliceB.acked(2));
  aliceB.open(3); // alice's third stream, her first two on A and B: locally fine, over the fleet's share
  await waitFor(() => aliceB.ended(3) !== undefined);
  expect(aliceB.ended(3)).toMatchObject({
    error: { code: -32600, message: expect.stringContaining('maxListenStreamsPerPrincipal') },
  });

  const anonA = connect(a);
  const anonB = connect(b);
  anonA.open(4);
  await waitFor(() => anonA.acked(4));
  anonB.open(5);
  await waitFor(() => anonB.ended(5) !== undefined);
  expect(anonB.ended(5)).toMatchObject({ error: { message: expect.stringContaining('maxAnonymousListenStreams') } });

  const bob = connect(b, 'bob'); // within his share, but alice's two and the anonymous one fill the fleet's 3
  bob.open(6);
  await waitFor(() => bob.ended(6) !== undefined);
  expect(bob.ended(6)).toMatchObject({
    error: { code: -32600, message: expect.stringContaining('(maxListenStreams)') },
  });

  aliceA.cancel(1); // a slot freed on A is free for the fleet
  let attempt = 10;
  await waitFor(() => {
    if (bob.acked(attempt)) return true;
    if (attempt === 10 || bob.ended(attempt)) bob.open(++attempt);
    return false;
  });
  expect(bob.ended(attempt)).toBeUndefined(); // still open

  for (const c of [aliceA, aliceB, anonA, anonB, bob]) await c.conn.drain();
  await waitFor(() => leases.size === 0); // every lease given back
});

test('a lease counter that cannot answer ends the stream with the unavailable-store message', async () => {
  const failing: LeaseCounter = {
    acquire: async () => {
      throw new StoreUnavailableError('Redis at 127.0.0.1:1 is unreachable');
    },
    renew: async () => false,
    release: async () => undefined,
  };
  const c = connect(instance(failing), 'alice');
  c.open(1);
  await waitFor(() => c.ended(1) !== undefined);
  expect(c.acked(1)).toBe(true);
  expect(c.ended(1)).toMatchObject({ error: { code: -32603, message: StoreUnavailableError.clientMessage } });
  await c.conn.drain();
});

/**
 * RedisEventStore and RedisNotificationBus against a real redis-server: the shared contracts, a
 * stream resumed on another instance, the cap per stream, TTLs, events across instances, and the
 * bus hearing again after Redis restarts.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { RedisEventStore, RedisNotificationBus, type RedisConnection } from '../../../src/redis';
import type { NotificationBusEvent } from '../../../src/server/fleet/notification-bus';
import { eventStoreContract } from '../../helpers/contracts/event-store';
import { collect, notificationBusContract } from '../../helpers/contracts/notification-bus';
import { expectEveryKeyExpires, keysWithTtl, useRedisServer } from './fixture';

const redis = useRedisServer();
const note = (n: number) => ({ jsonrpc: '2.0' as const, method: 'notifications/message', params: { n } });
let connection: RedisConnection;
beforeAll(async () => {
  connection = await redis.connect();
});

describe('RedisEventStore', () => {
  eventStoreContract(() => new RedisEventStore(connection));

  test('a stream written on one instance resumes on another', async () => {
    const prefix = `ev${Date.now()}:`;
    const a = new RedisEventStore(await redis.connect({ keyPrefix: prefix }));
    const b = new RedisEventStore(await redis.connect({ keyPrefix: prefix }));
    const first = await a.append('session-1', note(1));
    const second = await b.append('session-1', note(2));
    expect(await b.eventsAfter(first)).toEqual({ streamId: 'session-1', events: [{ id: second, message: note(2) }] });
  });

  test('capped per stream: the oldest go first, and an id that was dropped answers undefined', async () => {
    const store = new RedisEventStore(connection, { maxEventsPerStream: 3 });
    const ids: string[] = [];
    for (let n = 1; n <= 5; n++) ids.push(await store.append('capped', note(n)));
    expect(await store.eventsAfter(ids[0]!)).toBeUndefined();
    expect(await store.eventsAfter(ids[2]!)).toEqual({
      streamId: 'capped',
      events: [
        { id: ids[3], message: note(4) },
        { id: ids[4], message: note(5) },
      ],
    });
    expect(await connection.command(['XLEN', connection.key('events', 'capped')])).toBe(3);
  });

  test('a stream expires ttlMs after its last event', async () => {
    const store = new RedisEventStore(connection, { ttlMs: 60_000 });
    await store.append('ttl', note(1));
    const ttl = (await keysWithTtl(connection)).get(connection.key('events', 'ttl'));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });
});

describe('RedisNotificationBus', () => {
  notificationBusContract(async () => {
    const prefix = `bus${Date.now()}${Math.random()}:`;
    return [
      new RedisNotificationBus(await redis.connect({ keyPrefix: prefix })),
      new RedisNotificationBus(await redis.connect({ keyPrefix: prefix })),
    ];
  });

  test('another key prefix is another fleet; malformed messages are ignored', async () => {
    const a = new RedisNotificationBus(await redis.connect({ keyPrefix: 'app-a:' }));
    const other = new RedisNotificationBus(await redis.connect({ keyPrefix: 'app-b:' }));
    const heard: NotificationBusEvent[] = [];
    const strangers: NotificationBusEvent[] = [];
    const stop = await a.subscribe((e) => heard.push(e));
    const stopOther = await other.subscribe((e) => strangers.push(e));
    await connection.command(['PUBLISH', a.channel, 'not json']);
    await connection.command([
      'PUBLISH',
      a.channel,
      JSON.stringify({ type: 'listChanged', list: 'tables', instanceId: 'X' }),
    ]);
    await a.publish({ type: 'listChanged', list: 'tools', instanceId: 'A' });
    expect(await collect(heard, 1)).toEqual([{ type: 'listChanged', list: 'tools', instanceId: 'A' }]);
    await sleep(50);
    expect(heard).toHaveLength(1);
    expect(strangers).toEqual([]);
    await stop();
    await stopOther();
  });
});

test('every key the event store wrote has a TTL', async () => {
  await expectEveryKeyExpires(connection);
});

test('the bus hears again after Redis restarts (node-redis subscribes again) and says it reconnected', async () => {
  const prefix = `restart${Date.now()}:`;
  const a = new RedisNotificationBus(await redis.connect({ keyPrefix: prefix }));
  const b = new RedisNotificationBus(await redis.connect({ keyPrefix: prefix }));
  const heard: NotificationBusEvent[] = [];
  let reconnects = 0;
  b.onReconnect(() => reconnects++);
  const stop = await b.subscribe((e) => heard.push(e));
  await redis.server().stop();
  await expect(a.publish({ type: 'listChanged', list: 'tools', instanceId: 'A' })).rejects.toThrow(
    /Redis at 127\.0\.0\.1:\d+ is unreachable/,
  );
  await redis.server().start();
  // Publish until heard: the subscriber connection comes back on its own schedule.
  for (let i = 0; heard.length === 0 && i < 100; i++) {
    await a.publish({ type: 'resourceUpdated', uri: 'x://after', instanceId: 'A' }).catch(() => undefined);
    await sleep(50);
  }
  expect(heard[0]).toEqual({ type: 'resourceUpdated', uri: 'x://after', instanceId: 'A' });
  expect(reconnects).toBe(1);
  await stop();
});

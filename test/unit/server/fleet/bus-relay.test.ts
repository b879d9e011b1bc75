/** relayThroughBus: two instances (two registries) on one bus hear each other's changes, never twice, never echoed. */
import { Registry, type RegistryEvent } from '../../../../src/registry/registry';
import { relayThroughBus } from '../../../../src/server/fleet/bus-relay';
import { InProcessNotificationBus, type NotificationBus } from '../../../../src/server/fleet/notification-bus';
import { silentLogger } from '../../../../src/server/core/server-logger';

function instance(bus: NotificationBus) {
  const registry = new Registry();
  const heard: RegistryEvent[] = [];
  registry.subscribe((e) => heard.push(e));
  const relay = relayThroughBus(registry, bus, silentLogger);
  return { registry, heard, relay };
}

const flush = () => new Promise((r) => setImmediate(r));

test('a change on A reaches B once, and A hears its own change once (not echoed back)', async () => {
  const bus = new InProcessNotificationBus();
  const a = instance(bus);
  const b = instance(bus);
  await Promise.all([a.relay.listening, b.relay.listening]);
  a.registry.notifyResourceUpdated('test://r');
  await flush();
  expect(a.heard).toEqual([{ type: 'resourceUpdated', uri: 'test://r' }]);
  expect(b.heard).toEqual([{ type: 'resourceUpdated', uri: 'test://r' }]);
});

test('a relayed change is not published again (no loop between instances)', async () => {
  const bus = new InProcessNotificationBus();
  const published: unknown[] = [];
  const counting: NotificationBus = {
    publish: async (e) => (published.push(e), bus.publish(e)),
    subscribe: (l) => bus.subscribe(l),
  };
  const a = instance(counting);
  const b = instance(counting);
  await Promise.all([a.relay.listening, b.relay.listening]);
  a.registry.notifyResourceUpdated('test://once');
  await flush();
  expect(published).toHaveLength(1);
  expect(b.heard).toHaveLength(1);
});

test('after a reconnect every list is announced changed to local listeners', async () => {
  const bus = new InProcessNotificationBus();
  let reconnect: () => void = () => undefined;
  const withReconnect: NotificationBus = {
    publish: (e) => bus.publish(e),
    subscribe: (l) => bus.subscribe(l),
    onReconnect: (l) => ((reconnect = l), () => (reconnect = () => undefined)),
  };
  const a = instance(withReconnect);
  await a.relay.listening;
  reconnect();
  expect(a.heard.map((e) => e.type === 'listChanged' && e.list)).toEqual(['tools', 'prompts', 'resources']);
  await a.relay.stop();
  reconnect();
  expect(a.heard).toHaveLength(3);
});

test('a failed publish is logged, not thrown', async () => {
  const warnings: string[] = [];
  const failing: NotificationBus = {
    publish: async () => {
      throw new Error('Redis at x:1 is unreachable');
    },
    subscribe: async () => async () => undefined,
  };
  const registry = new Registry();
  relayThroughBus(registry, failing, { ...silentLogger, warn: (m: string) => warnings.push(m) });
  registry.notifyResourceUpdated('test://r');
  await flush();
  expect(warnings).toEqual([expect.stringContaining('not published')]);
});

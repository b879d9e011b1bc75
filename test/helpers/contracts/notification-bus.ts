/**
 * The NotificationBus contract (in-process, Redis). `pair()` gives two buses of one fleet (the same
 * bus twice for the in-process one): what one publishes, subscribers of both hear.
 */
import type { NotificationBus, NotificationBusEvent } from '../../../src/server/fleet/notification-bus';

/** Resolves with the first `count` events the listener hears (rejects after 5 s). */
export function collect(events: NotificationBusEvent[], count: number): Promise<NotificationBusEvent[]> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const check = (): void => {
      if (events.length >= count) resolve(events.slice(0, count));
      else if (Date.now() - started > 5_000) reject(new Error(`heard ${events.length} of ${count} events: ${JSON.stringify(events)}`));
      else setTimeout(check, 5);
    };
    check();
  });
}

export function notificationBusContract(pair: () => Promise<[NotificationBus, NotificationBus]>): void {
  test('every subscriber on every bus hears each event, in order, with its instance id', async () => {
    const [a, b] = await pair();
    const onA: NotificationBusEvent[] = [];
    const onB: NotificationBusEvent[] = [];
    const stopA = await a.subscribe((e) => onA.push(e));
    const stopB = await b.subscribe((e) => onB.push(e));
    const sent: NotificationBusEvent[] = [
      { type: 'listChanged', list: 'tools', instanceId: 'A' },
      { type: 'resourceUpdated', uri: 'file:///x', instanceId: 'A' },
    ];
    for (const e of sent) await a.publish(e);
    expect(await collect(onA, 2)).toEqual(sent);
    expect(await collect(onB, 2)).toEqual(sent);
    await stopA();
    await stopB();
  });

  test('after unsubscribe a listener hears nothing; a throwing listener does not stop the others', async () => {
    const [a, b] = await pair();
    const gone: NotificationBusEvent[] = [];
    const kept: NotificationBusEvent[] = [];
    const stopGone = await b.subscribe((e) => gone.push(e));
    const stopThrowing = await b.subscribe(() => {
      throw new Error('closed stream');
    });
    const stopKept = await b.subscribe((e) => kept.push(e));
    await stopGone();
    await a.publish({ type: 'listChanged', list: 'prompts', instanceId: 'A' });
    expect(await collect(kept, 1)).toEqual([{ type: 'listChanged', list: 'prompts', instanceId: 'A' }]);
    expect(gone).toEqual([]);
    await stopThrowing();
    await stopKept();
  });
}

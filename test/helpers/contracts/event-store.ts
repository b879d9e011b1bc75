/**
 * The EventStore contract (memory, Redis): ids unique across streams, events after an id are that
 * stream's only and in order, a priming event keeps its null message, unknown ids and dropped
 * streams answer undefined.
 */
import { randomUUID } from 'node:crypto';
import type { EventStore } from '../../../src/transports/http/event-store';

const note = (n: number) => ({ jsonrpc: '2.0' as const, method: 'notifications/message', params: { n } });

export function eventStoreContract(store: () => EventStore): void {
  const stream = () => `s-${randomUUID()}`;

  test('resuming after an id gives the later events of that stream only, in order', async () => {
    const s = store();
    const [a, b] = [stream(), stream()];
    const prime = await s.append(a, null);
    const a1 = await s.append(a, note(1));
    const b1 = await s.append(b, note(10));
    const a2 = await s.append(a, note(2));
    expect(new Set([prime, a1, b1, a2]).size).toBe(4);
    expect(await s.eventsAfter(prime)).toEqual({
      streamId: a,
      events: [
        { id: a1, message: note(1) },
        { id: a2, message: note(2) },
      ],
    });
    expect(await s.eventsAfter(a2)).toEqual({ streamId: a, events: [] });
    expect(await s.eventsAfter(b1)).toEqual({ streamId: b, events: [] });
  });

  test('a priming event keeps its null message', async () => {
    const s = store();
    const a = stream();
    const first = await s.append(a, note(1));
    const prime = await s.append(a, null);
    expect(await s.eventsAfter(first)).toEqual({ streamId: a, events: [{ id: prime, message: null }] });
  });

  test('an unknown id, or one of a dropped stream, answers undefined', async () => {
    const s = store();
    const a = stream();
    const id = await s.append(a, note(1));
    expect(await s.eventsAfter('nonsense')).toBeUndefined();
    expect(await s.eventsAfter(`${a}_999`)).toBeUndefined();
    await s.dropStream?.(a);
    expect(await s.eventsAfter(id)).toBeUndefined();
  });
}

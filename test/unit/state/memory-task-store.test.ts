import { MemoryTaskStore } from '../../../src/state/memory-task-store';

describe('MemoryTaskStore', () => {
  test('caps per owner, compare-and-set, delete frees a place', async () => {
    const store = new MemoryTaskStore();
    const at = Date.now() + 60_000;
    expect(await store.create('a', 'alice', 'A', at, 2)).toBe('created');
    expect(await store.create('b', 'alice', 'B', at, 2)).toBe('created');
    expect(await store.create('c', 'alice', 'C', at, 2)).toBe('full');
    expect(await store.create('c', 'bob', 'C', at, 2)).toBe('created');
    expect(await store.replace('a', 1, 'A2')).toBe(true);
    expect(await store.replace('a', 1, 'A3')).toBe(false);
    expect(await store.get('a')).toEqual({ owner: 'alice', version: 2, value: 'A2', expiresAt: at });
    await store.delete('a');
    expect(await store.get('a')).toBeUndefined();
    expect(await store.create('d', 'alice', 'D', at, 2)).toBe('created');
  });

  test('an expired task is forgotten and no longer counts', async () => {
    let now = 1_000;
    const store = new MemoryTaskStore(() => now);
    expect(await store.create('a', 'o', 'A', 2_000, 1)).toBe('created');
    expect(await store.create('b', 'o', 'B', 5_000, 1)).toBe('full');
    now = 2_000;
    expect(await store.get('a')).toBeUndefined();
    expect(await store.replace('a', 1, 'x')).toBe(false);
    expect(await store.create('b', 'o', 'B', 5_000, 1)).toBe('created');
    expect(store.size).toBe(1);
  });
});

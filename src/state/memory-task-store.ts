/** TaskStore in process memory: one instance only. Sweeps expired tasks as it goes. */
import type { StoredTask, TaskStore } from './task-store';

export class MemoryTaskStore implements TaskStore {
  private readonly tasks = new Map<string, StoredTask>();
  private readonly byOwner = new Map<string, Set<string>>();
  private nextSweepAt = 0;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly sweepIntervalMs = 10_000,
  ) {}

  get size(): number {
    return this.tasks.size;
  }

  async create(
    id: string,
    owner: string,
    value: string,
    expiresAt: number,
    maxPerOwner: number,
  ): Promise<'created' | 'full'> {
    this.sweepIfDue();
    const owned = this.byOwner.get(owner) ?? new Set<string>();
    for (const held of owned) if (!this.live(held)) this.forget(held);
    if (owned.size >= maxPerOwner) return 'full';
    this.tasks.set(id, Object.freeze({ owner, version: 1, value, expiresAt }));
    owned.add(id);
    this.byOwner.set(owner, owned);
    return 'created';
  }

  async get(id: string): Promise<StoredTask | undefined> {
    return this.live(id);
  }

  async replace(id: string, version: number, value: string): Promise<boolean> {
    const task = this.live(id);
    if (!task || task.version !== version) return false;
    this.tasks.set(id, Object.freeze({ ...task, version: version + 1, value }));
    return true;
  }

  async delete(id: string): Promise<void> {
    this.forget(id);
  }

  private live(id: string): StoredTask | undefined {
    const task = this.tasks.get(id);
    if (task && task.expiresAt <= this.now()) {
      this.forget(id);
      return undefined;
    }
    return task;
  }

  private forget(id: string): void {
    const task = this.tasks.get(id);
    if (!task) return;
    this.tasks.delete(id);
    const owned = this.byOwner.get(task.owner);
    owned?.delete(id);
    if (owned?.size === 0) this.byOwner.delete(task.owner);
  }

  private sweepIfDue(): void {
    const now = this.now();
    if (now < this.nextSweepAt) return;
    this.nextSweepAt = now + this.sweepIntervalMs;
    for (const [id, task] of this.tasks) if (task.expiresAt <= now) this.forget(id);
  }
}

/** Requests being served, so shutdown can wait for them and, past its deadline, abort them. */
/** Anything that can abort a request (an AbortController, or a lazy stand-in for one). */
export interface Abortable {
  abort(reason?: unknown): void;
}

/**
 * A request's I/O that keeps its own place among those in flight: entering and leaving hash nothing and
 * re-make no Set table (issue 34: a Set going 0 ↔ 1 entries re-allocates its table on every delete).
 */
export interface InflightEntry extends Abortable {
  /** Its index in the list while in flight; -1 otherwise. */
  inflightSlot: number;
}

export class Inflight {
  private readonly controllers = new Set<Abortable>();
  /** Entries by slot (undefined: free); as long as the most requests ever in flight at once. */
  private readonly entered: (InflightEntry | undefined)[] = [];
  private readonly freeSlots: number[] = [];
  private count = 0;
  private idle: Array<() => void> = [];

  get size(): number {
    return this.count;
  }

  /** Counts a request until `leave` (the caller awaits its work in between): no closure, no derived promise. */
  enter(entry: InflightEntry): void {
    this.count++;
    const slot = this.freeSlots.pop() ?? this.entered.length;
    this.entered[slot] = entry;
    entry.inflightSlot = slot;
  }

  leave(entry: InflightEntry): void {
    const slot = entry.inflightSlot;
    if (slot >= 0 && this.entered[slot] === entry) {
      this.entered[slot] = undefined;
      this.freeSlots.push(slot);
      entry.inflightSlot = -1;
    }
    if (--this.count === 0) this.wakeIdle();
  }

  track<T>(work: Promise<T>, controller?: Abortable): Promise<T> {
    this.count++;
    if (controller) this.controllers.add(controller);
    const done = () => {
      if (controller) this.controllers.delete(controller);
      if (--this.count === 0) this.wakeIdle();
    };
    work.then(done, done);
    return work;
  }

  /** Wakes the drains waiting for idle; nothing is made when none waits (every request at concurrency 1). */
  private wakeIdle(): void {
    if (this.idle.length === 0) return;
    for (const wake of this.idle.splice(0)) wake();
  }

  /** Resolves true when everything finished before the deadline. */
  async drain(deadlineMs: number): Promise<boolean> {
    if (this.count === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((r) => (timer = setTimeout(() => r(false), deadlineMs)));
    const all = new Promise<true>((r) => this.idle.push(() => r(true)));
    const done = await Promise.race([all, timeout]);
    clearTimeout(timer);
    return done;
  }

  abortAll(reason: string): void {
    for (const c of this.controllers) c.abort(new Error(reason));
    for (const e of this.entered) e?.abort(new Error(reason));
  }
}

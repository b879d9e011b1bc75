/** Requests being served, so shutdown can wait for them and, past its deadline, abort them. */
/** Anything that can abort a request (an AbortController, or a lazy stand-in for one). */
export interface Abortable {
  abort(reason?: unknown): void;
}

export class Inflight {
  private readonly controllers = new Set<Abortable>();
  private count = 0;
  private idle: Array<() => void> = [];

  get size(): number {
    return this.count;
  }

  /** Counts a request until `leave` (the caller awaits its work in between): no closure, no derived promise. */
  enter(controller: Abortable): void {
    this.count++;
    this.controllers.add(controller);
  }

  leave(controller: Abortable): void {
    this.controllers.delete(controller);
    if (--this.count === 0) for (const wake of this.idle.splice(0)) wake();
  }

  track<T>(work: Promise<T>, controller?: Abortable): Promise<T> {
    this.count++;
    if (controller) this.controllers.add(controller);
    const done = () => {
      if (controller) this.controllers.delete(controller);
      if (--this.count === 0) for (const wake of this.idle.splice(0)) wake();
    };
    work.then(done, done);
    return work;
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
  }
}

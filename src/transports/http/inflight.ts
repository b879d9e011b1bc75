/** Requests being served, so shutdown can wait for them and, past its deadline, abort them. */
export class Inflight {
  private readonly running = new Map<Promise<unknown>, AbortController | undefined>();

  get size(): number {
    return this.running.size;
  }

  track<T>(work: Promise<T>, controller?: AbortController): Promise<T> {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.running.set(settled, controller);
    void settled.then(() => this.running.delete(settled));
    return work;
  }

  /** Resolves true when everything finished before the deadline. */
  async drain(deadlineMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((r) => (timer = setTimeout(() => r(false), deadlineMs)));
    const all = (async () => {
      while (this.running.size) await Promise.all([...this.running.keys()]);
      return true as const;
    })();
    const done = await Promise.race([all, timeout]);
    clearTimeout(timer);
    return done;
  }

  abortAll(reason: string): void {
    for (const c of this.running.values()) c?.abort(new Error(reason));
  }
}

/** A push-driven async iterable (for `listen`): push, end, fail; iteration ends by `return()` too. */
export class AsyncQueue<T> implements AsyncIterableIterator<T> {
  private readonly items: T[] = [];
  private readonly waiters: { resolve(r: IteratorResult<T>): void; reject(e: unknown): void }[] = [];
  private done = false;
  private error: unknown;

  constructor(private readonly onReturn?: () => void) {}

  push(item: T): void {
    if (this.done) return;
    const w = this.waiters.shift();
    if (w) w.resolve({ value: item, done: false });
    else this.items.push(item);
  }

  end(error?: unknown): void {
    if (this.done) return;
    this.done = true;
    this.error = error;
    for (const w of this.waiters.splice(0)) error ? w.reject(error) : w.resolve({ value: undefined, done: true });
  }

  next(): Promise<IteratorResult<T>> {
    const item = this.items.shift();
    if (item !== undefined) return Promise.resolve({ value: item, done: false });
    if (this.done) return this.error ? Promise.reject(this.error) : Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  async return(): Promise<IteratorResult<T>> {
    this.onReturn?.();
    this.end();
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

/** `ctx.state`: string values that survive replays (carried in the sealed requestState on 2026). */
export class StateBag {
  /** Made on first write (or from a non-empty initial state): most requests never touch `ctx.state`. */
  private values?: Map<string, string>;

  constructor(initial?: Record<string, string>) {
    if (!initial) return;
    for (const key in initial) {
      if (Object.prototype.hasOwnProperty.call(initial, key)) (this.values ??= new Map()).set(key, initial[key]!);
    }
  }

  get(key: string): string | undefined {
    return this.values?.get(key);
  }
  has(key: string): boolean {
    return this.values?.has(key) ?? false;
  }
  set(key: string, value: string): this {
    if (typeof key !== 'string' || typeof value !== 'string') {
      throw new TypeError('ctx.state keeps string keys and string values (JSON.stringify other values yourself)');
    }
    (this.values ??= new Map()).set(key, value);
    return this;
  }
  delete(key: string): boolean {
    return this.values?.delete(key) ?? false;
  }
  get size(): number {
    return this.values?.size ?? 0;
  }
  entries(): IterableIterator<[string, string]> {
    return (this.values ?? new Map<string, string>()).entries();
  }
  toJSON(): Record<string, string> {
    return this.values ? Object.fromEntries(this.values) : {};
  }
}

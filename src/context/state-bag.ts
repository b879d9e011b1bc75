/** `ctx.state`: string values that survive replays (carried in the sealed requestState on 2026). */
export class StateBag {
  private readonly values: Map<string, string>;

  constructor(initial?: Record<string, string>) {
    this.values = new Map(initial ? Object.entries(initial) : []);
  }

  get(key: string): string | undefined {
    return this.values.get(key);
  }
  has(key: string): boolean {
    return this.values.has(key);
  }
  set(key: string, value: string): this {
    if (typeof key !== 'string' || typeof value !== 'string') {
      throw new TypeError('ctx.state keeps string keys and string values (JSON.stringify other values yourself)');
    }
    this.values.set(key, value);
    return this;
  }
  delete(key: string): boolean {
    return this.values.delete(key);
  }
  get size(): number {
    return this.values.size;
  }
  entries(): IterableIterator<[string, string]> {
    return this.values.entries();
  }
  toJSON(): Record<string, string> {
    return Object.fromEntries(this.values);
  }
}

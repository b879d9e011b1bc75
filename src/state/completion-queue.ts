/**
 * Completed flows in completion order, for letting the oldest go first. An array with a moving
 * head, not a `Set`: a Set used as a queue keeps its deleted slots until it rehashes, and finding
 * its first live item then scans them all (O(n) per step at 100 000 records). Items are removed
 * lazily: whatever left the store another way (expired, let go through another queue) is skipped
 * when it reaches the head, and the array is compacted when the dead outnumber the live.
 */
export class CompletionQueue<T> {
  private items: T[] = [];
  private head = 0;

  constructor(private readonly alive: (item: T) => boolean) {}

  push(item: T): void {
    this.items.push(item);
  }

  /** Takes the oldest item still alive (undefined: none), dropping dead ones before it. */
  shift(): T | undefined {
    while (this.head < this.items.length) {
      const item = this.items[this.head]!;
      this.items[this.head++] = undefined as T;
      if (this.alive(item)) {
        this.settle();
        return item;
      }
    }
    this.items = [];
    this.head = 0;
    return undefined;
  }

  /** Call with the number of items alive: compacts when the array is more than twice that (amortized O(1)). */
  trim(aliveCount: number): void {
    if (this.items.length - this.head <= 2 * aliveCount + 1024) return this.settle();
    this.items = this.items.slice(this.head).filter(this.alive);
    this.head = 0;
  }

  private settle(): void {
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }
}

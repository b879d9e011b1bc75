/** One page of a list, as the client returns it. */

/** `nextCursor` absent on the last page; 2026 adds cache hints. */
export interface Page<T> {
  items: T[];
  nextCursor?: string;
  ttlMs?: number;
  cacheScope?: 'public' | 'private';
}

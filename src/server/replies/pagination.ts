/** Opaque list cursors: an offset, wrapped so clients cannot mistake it for anything else. */
import { ProtocolError } from '../../errors/protocol-error';

const PREFIX = 'o:';

export function encodeCursor(offset: number): string {
  return Buffer.from(PREFIX + offset.toString(36)).toString('base64url');
}

/** Offset for a cursor param; absent or empty-string means the first page. Invalid → -32602. */
export function decodeCursor(cursor: unknown): number {
  if (cursor === undefined || cursor === null || cursor === '') return 0;
  if (typeof cursor === 'string' && cursor.length <= 64 && /^[A-Za-z0-9_-]+$/.test(cursor)) {
    const text = Buffer.from(cursor, 'base64url').toString('utf8');
    if (text.startsWith(PREFIX) && /^[0-9a-z]{1,10}$/.test(text.slice(PREFIX.length))) {
      const offset = parseInt(text.slice(PREFIX.length), 36);
      if (Number.isSafeInteger(offset) && encodeCursor(offset) === cursor) return offset;
    }
  }
  throw ProtocolError.invalidParams('Invalid cursor');
}

export function page<T>(
  items: readonly T[],
  cursor: unknown,
  pageSize: number,
): { items: readonly T[]; nextCursor?: string } {
  const start = decodeCursor(cursor);
  if (start === 0 && items.length <= pageSize) return { items };
  const end = start + pageSize;
  const slice = items.slice(start, end);
  return end < items.length ? { items: slice, nextCursor: encodeCursor(end) } : { items: slice };
}

/**
 * A request body's checks that hold on every runtime: strict UTF-8, and the caps of a body a framework
 * already parsed. Reading a node:http body is node-body.ts.
 */
import type { BodyRead } from './http-exchange';

export const TOO_LARGE = (limit: number): BodyRead => ({
  ok: false,
  status: 413,
  reason: `Request body larger than ${limit} bytes`,
});

/** Decodes UTF-8 strictly: invalid bytes are a parse error, not U+FFFD silently handed to a tool. */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true }); // stateless between whole-buffer decodes

export function decodeUtf8(bytes: Uint8Array): BodyRead {
  try {
    return { ok: true, text: strictUtf8.decode(bytes) };
  } catch {
    return { ok: false, status: 400, reason: 'Request body is not valid UTF-8' };
  }
}

/**
 * What is wrong with a body a framework already parsed, if anything: nested deeper than `maxDepth`
 * (400), or larger than `maxBytes` (413; the framework's own limit may be larger than ours).
 */
export function parsedBodyProblem(
  value: unknown,
  declaredLength: number,
  maxBytes: number,
  maxDepth: number,
): { status: 400 | 413; reason: string } | undefined {
  if (valueDepthExceeds(value, maxDepth + 1)) return { status: 400, reason: `JSON nesting deeper than ${maxDepth}` };
  if ((Number.isFinite(declaredLength) && declaredLength > maxBytes) || valueSizeExceeds(value, maxBytes)) {
    return { status: 413, reason: `Request body larger than ${maxBytes} bytes` };
  }
  return undefined;
}

/** Nesting depth of an already-parsed value (a framework parsed it; we still refuse bombs). */
export function valueDepthExceeds(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (d > limit) return true;
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return false;
}

/**
 * Whether an already-parsed body would take more than `limit` bytes as JSON: a framework's parser
 * (`express.json({ limit: '20mb' })`) may have admitted more than `maxBodyBytes`, and the cap is
 * ours to keep. Counted while walking (strings as UTF-8, plus quotes and separators), stopping as
 * soon as the count passes the limit, so a huge body costs no second copy.
 */
export function valueSizeExceeds(value: unknown, limit: number): boolean {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') size += Buffer.byteLength(v) + 2;
    else if (typeof v === 'number' || typeof v === 'boolean') size += String(v).length;
    else if (v === null || v === undefined) size += 4;
    else if (Array.isArray(v)) {
      size += 2 + v.length;
      for (const child of v) stack.push(child);
    } else if (typeof v === 'object') {
      const entries = Object.entries(v);
      size += 2 + entries.length * 2;
      for (const [key, child] of entries) {
        size += Buffer.byteLength(key) + 2;
        stack.push(child);
      }
    }
    if (size > limit) return true;
  }
  return false;
}

/** Reads a request body under a byte cap (declared and streamed) and decodes it as strict UTF-8. */
import type { IncomingMessage } from 'node:http';
import type { BodyRead } from './http-exchange';

const TOO_LARGE = (limit: number): BodyRead => ({
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

export function readNodeBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return Promise.resolve(TOO_LARGE(limit));
  // Someone else (a framework's parser) already read the stream: there is nothing left to read.
  if (req.readableEnded)
    return Promise.resolve({ ok: false, status: 400, reason: 'Request body was already consumed' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // Cleared once settled: the error listener that stays must not keep the promise (and the body) alive.
    let done: ((r: BodyRead) => void) | undefined = resolve;
    // Plain `on`, not `once`: `done` already makes each a one-shot, without a wrapper per listener.
    const finish = (r: BodyRead) => {
      const settle = done;
      if (!settle) return;
      done = undefined;
      // The chunk listeners go: one left on a long-lived request (a listen stream) would keep the chunks.
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
      // The error listener stays, doing nothing now: a request that errors later (a reset after its
      // body was read: 'aborted') must still have one, or the error is uncaught and ends the process.
      chunks.length = 0;
      settle(r);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        // Stop buffering; the response says 413 and the connection is closed after it.
        req.pause();
        return finish(TOO_LARGE(limit));
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish(decodeUtf8(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
    const onError = () => finish({ ok: false, status: 400, reason: 'Request body could not be read' });
    const onClose = () => finish({ ok: false, status: 400, reason: 'Request body incomplete' });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
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

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
    let settled = false;
    const finish = (r: BodyRead) => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      resolve(r);
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
    req.on('data', onData);
    req.once('end', () => finish(decodeUtf8(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size))));
    req.once('error', () => finish({ ok: false, status: 400, reason: 'Request body could not be read' }));
    req.once('close', () => finish({ ok: false, status: 400, reason: 'Request body incomplete' }));
  });
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

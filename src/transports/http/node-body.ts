/**
 * Reads a node:http request body under a byte cap (declared and streamed) and decodes it as strict
 * UTF-8. Node only (node:buffer): the web entry's graph reaches body-reader.ts, never this file.
 */
import { isAscii } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { decodeUtf8, TOO_LARGE } from './body-reader';
import type { BodyRead } from './http-exchange';

/**
 * Nearly every body is ASCII, which is valid UTF-8 as it is (and holds no BOM to strip): a SIMD check
 * and a one-byte copy instead of the strict decoder's walk. Anything else goes through the decoder.
 */
function decodeBody(bytes: Buffer): BodyRead {
  return isAscii(bytes) ? { ok: true, text: bytes.toString('latin1') } : decodeUtf8(bytes);
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
    const onEnd = () => finish(decodeBody(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
    const onError = () => finish({ ok: false, status: 400, reason: 'Request body could not be read' });
    const onClose = () => finish({ ok: false, status: 400, reason: 'Request body incomplete' });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

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

/**
 * One read in progress, kept on the request under a symbol. The listeners are module functions that
 * find it through `this` (node calls a listener with the emitter as `this`): no closure per request.
 */
class BodyReading {
  readonly chunks: Buffer[] = [];
  size = 0;
  constructor(
    readonly limit: number,
    readonly settle: (r: BodyRead) => void,
    readonly promise: Promise<BodyRead>,
  ) {}
}

const READING = Symbol('onemodelcontext.bodyReading');
type ReadableRequest = IncomingMessage & { [READING]?: BodyReading | undefined };

// The Promise executor runs synchronously inside `new Promise`, so one module slot hands its resolve over.
let handedResolve: ((r: BodyRead) => void) | undefined;
function takeResolve(resolve: (r: BodyRead) => void): void {
  handedResolve = resolve;
}

export function readNodeBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return Promise.resolve(TOO_LARGE(limit));
  // Someone else (a framework's parser) already read the stream: there is nothing left to read.
  if (req.readableEnded)
    return Promise.resolve({ ok: false, status: 400, reason: 'Request body was already consumed' });
  const r = req as ReadableRequest;
  // A second read while one is under way shares it (the listeners below are one set per request).
  const current = r[READING];
  if (current) return current.promise;
  const promise = new Promise<BodyRead>(takeResolve);
  r[READING] = new BodyReading(limit, handedResolve!, promise);
  handedResolve = undefined;
  // Plain `on`, not `once`: clearing the request's reading already makes each a one-shot.
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onError);
  req.on('close', onClose);
  return promise;
}

/**
 * Settles the read once. The error listener stays, doing nothing now: a request that errors later (a
 * reset after its body was read: 'aborted') must still have one, or the error ends the process. After
 * 'end' no data or end comes again (and `readableEnded` keeps any later read away), so the listeners
 * stay too, finding no reading; on any other ending they go, so that a later read starts clean.
 */
function finish(req: ReadableRequest, r: BodyRead, ended: boolean): void {
  const reading = req[READING];
  if (!reading) return;
  req[READING] = undefined;
  if (!ended) {
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('close', onClose);
  }
  reading.chunks.length = 0;
  reading.settle(r);
}

function onData(this: ReadableRequest, chunk: Buffer): void {
  const reading = this[READING];
  if (!reading) return;
  reading.size += chunk.length;
  if (reading.size > reading.limit) {
    // Stop buffering; the response says 413 and the connection is closed after it.
    this.pause();
    return finish(this, TOO_LARGE(reading.limit), false);
  }
  reading.chunks.push(chunk);
}

function onEnd(this: ReadableRequest): void {
  const reading = this[READING];
  if (!reading) return;
  const { chunks } = reading;
  finish(this, decodeBody(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, reading.size)), true);
}

function onError(this: ReadableRequest): void {
  finish(this, { ok: false, status: 400, reason: 'Request body could not be read' }, false);
}

function onClose(this: ReadableRequest): void {
  finish(this, { ok: false, status: 400, reason: 'Request body incomplete' }, false);
}

/**
 * The readiness route on a port of its own (`readinessPort`), answered by a worker thread. Under
 * load the main thread's event loop takes its turns with many requests at once, and a probe that
 * waits for it waits as long as an MCP call does (bench/fleet-readiness.mjs: about a second at the
 * p99 on a busy 2-core machine). The main thread writes what readiness says (draining, stores
 * reachable) and a heartbeat into shared memory every 100 ms; the worker answers from it at once.
 * A main loop that has not beaten for 5 s is reported `stalled` (503): a wedged
 * instance must not look ready.
 */
import { Worker } from 'node:worker_threads';
import { FrameworkError } from '../../errors/framework-error';
import type { ReadinessFacts } from './readiness';

const BEAT_MS = 100;
/** A main loop silent this long is `stalled`: far beyond a busy turn, well inside a probe's patience. */
const STALLED_AFTER_MS = 5_000;

// Plain CommonJS, evaluated in the worker: it works the same from the CommonJS and the ESM builds.
const WORKER = `
const { parentPort, workerData: w } = require('node:worker_threads');
const http = require('node:http');
const flags = new Int32Array(w.shared, 0, 2);
const beat = new Float64Array(w.shared, 8, 1);
const server = http.createServer((req, res) => {
  if ((req.url || '').split('?')[0] !== w.path) return void res.writeHead(404).end();
  if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { Allow: 'GET, HEAD' }).end();
  const draining = Atomics.load(flags, 0) === 1;
  const status = draining ? 'draining' : Date.now() - beat[0] > w.stalledAfterMs ? 'stalled'
    : Atomics.load(flags, 1) === 1 ? 'ready' : 'store-unreachable';
  const body = JSON.stringify({ status, requestStateKey: w.fingerprint });
  res.writeHead(status === 'ready' ? 200 : 503, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store',
    'Content-Length': Buffer.byteLength(body) });
  res.end(req.method === 'HEAD' ? undefined : body);
});
server.on('error', (e) => parentPort.postMessage({ error: e.code || e.message }));
server.listen(w.port, w.host, () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', () => { server.closeAllConnections(); server.close(() => parentPort.close()); });
`;

export interface ReadinessThread {
  readonly port: number;
  close(): Promise<void>;
}

export async function startReadinessThread(
  facts: ReadinessFacts,
  where: { host: string; port: number },
): Promise<ReadinessThread> {
  const shared = new SharedArrayBuffer(16);
  const flags = new Int32Array(shared, 0, 2);
  const beat = new Float64Array(shared, 8, 1);
  const publish = (): void => {
    Atomics.store(flags, 0, facts.draining() ? 1 : 0);
    Atomics.store(flags, 1, facts.storesReachable() ? 1 : 0);
    beat[0] = Date.now();
  };
  publish();
  const timer = setInterval(publish, BEAT_MS);
  timer.unref();
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: {
      shared,
      path: facts.path,
      fingerprint: facts.stateKeyFingerprint,
      stalledAfterMs: STALLED_AFTER_MS,
      ...where,
    },
  });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  try {
    const port = await new Promise<number>((resolve, reject) => {
      worker.once('message', (m: { port?: number; error?: string }) =>
        m.port !== undefined ? resolve(m.port) : reject(new Error(m.error)),
      );
      worker.once('error', reject);
    });
    return {
      port,
      close: async () => {
        clearInterval(timer);
        worker.postMessage('close');
        await exited;
      },
    };
  } catch (e) {
    clearInterval(timer);
    await worker.terminate();
    const why = e instanceof Error ? e.message : String(e);
    throw new FrameworkError('OMC_TRANSPORT', `serveHttp cannot serve readiness on ${where.host}:${where.port}: ${why}.`, {
      cause: e,
    });
  }
}

/**
 * Entry of the conformance server: `node build/conformance/server.js`. Listens on 127.0.0.1:$PORT
 * (default 3000) at /mcp, both eras on one endpoint; REQUEST_STATE_KEY seals requestState.
 * stdout gets one line once listening (scripts wait for it); diagnostics go to stderr.
 */
import 'reflect-metadata';
import { serveHttp } from '../src/transports/http';
import { createConformanceApp } from './app';

function readPort(raw: string | undefined): number {
  const port = Number(raw ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`PORT must be an integer 0-65535, got ${raw}`);
  return port;
}

async function main(): Promise<void> {
  const app = createConformanceApp({ requestStateKey: process.env.REQUEST_STATE_KEY || undefined });
  const handle = await serveHttp(app, { port: readPort(process.env.PORT), host: '127.0.0.1', path: '/mcp' });
  process.stdout.write(`conformance server listening on ${handle.url}\n`);
  const stop = (): void => {
    void handle.close({ deadlineMs: 2000 }).then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((e: unknown) => {
  process.stderr.write(`conformance server failed to start: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});

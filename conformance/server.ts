/**
 * Entry of the conformance server: `node build/conformance/server.js`. Listens on 127.0.0.1:$PORT
 * (default 3000) at /mcp, both eras on one endpoint; REQUEST_STATE_KEY seals requestState, and the
 * other deployment variables (REDIS_URL, ALLOWED_HOSTS, SESSION_ID_PREFIX, READINESS_PATH) apply
 * as in docs/deployment.md. stdout gets one line once listening (scripts wait for it); diagnostics
 * go to stderr.
 */
import 'reflect-metadata';
import { httpOptionsFromEnv, readDeploymentEnv } from '../src/transports/http/deployment-env';
import { serveHttp } from '../src/transports/http';
import { createConformanceApp } from './app';

async function main(): Promise<void> {
  const env = readDeploymentEnv(process.env);
  const app = createConformanceApp({ requestStateKey: env.requestStateKey, redisUrl: env.redisUrl });
  const handle = await serveHttp(app, httpOptionsFromEnv(env));
  process.stdout.write(`conformance server listening on ${handle.url}\n`);
  const stop = (): void => {
    void handle.close({ deadlineMs: 10_000 }).then(() => app.close()).finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((e: unknown) => {
  process.stderr.write(`conformance server failed to start: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});

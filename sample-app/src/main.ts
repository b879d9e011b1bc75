/**
 * Runs the travel desk over Streamable HTTP on 127.0.0.1:3000/mcp, or over stdio with `--stdio` (its
 * approval pages then on a loopback port of their own: APPROVAL_PORT, or any free one).
 * Reads PORT, REQUEST_STATE_KEY, REDIS_URL, ALLOWED_HOSTS, SESSION_ID_PREFIX and READINESS_PATH
 * (docs/deployment.md).
 */
import 'reflect-metadata';
import { httpOptionsFromEnv, readDeploymentEnv, serveHttp, serveStdio } from 'onemodelcontext';
import { createTravelDesk } from './app';

async function main(): Promise<void> {
  const env = readDeploymentEnv(process.env);
  const app = createTravelDesk({ requestStateKey: env.requestStateKey, redisUrl: env.redisUrl });
  if (process.argv.includes('--stdio')) {
    // book_flight's approval pages (for a host that cannot show its questions) need an address over stdio too.
    const pages = await serveHttp(app, { host: '127.0.0.1', port: Number(process.env.APPROVAL_PORT ?? 0) });
    process.stderr.write(`travel-desk over stdio; approval pages on ${pages.url}/approval\n`);
    const { closed } = await serveStdio(app);
    await closed;
    await pages.close({ deadlineMs: 1_000 });
    process.exit(0);
  }
  const server = await serveHttp(app, httpOptionsFromEnv(env));
  process.stderr.write(
    [
      `travel-desk listening on ${server.url} (both 2026-07-28 and 2025-11-25 clients)`,
      `  Inspect it:   npx @modelcontextprotocol/inspector --transport http --server-url ${server.url}`,
      `  From code:    const client = await ContextClient.connect({ url: '${server.url}' });`,
      `                console.log(await client.listTools());`,
      '',
    ].join('\n'),
  );
  const stop = () => void server.close({ deadlineMs: 10_000 }).then(() => app.close()).finally(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});

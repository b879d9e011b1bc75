/** Runs the travel desk over Streamable HTTP on 127.0.0.1:3000/mcp, or over stdio with `--stdio`. */
import 'reflect-metadata';
import { serveHttp, serveStdio } from 'onemodelcontext';
import { createTravelDesk } from './app';

async function main(): Promise<void> {
  const app = createTravelDesk({ requestStateKey: process.env.REQUEST_STATE_KEY || undefined });
  if (process.argv.includes('--stdio')) {
    const { closed } = await serveStdio(app);
    await closed;
    process.exit(0);
  }
  const port = Number(process.env.PORT ?? 3000);
  const server = await serveHttp(app, { host: '127.0.0.1', port, path: '/mcp' });
  process.stderr.write(
    [
      `travel-desk listening on ${server.url} (both 2026-07-28 and 2025-11-25 clients)`,
      `  Inspect it:   npx @modelcontextprotocol/inspector --transport http --server-url ${server.url}`,
      `  From code:    const client = await ContextClient.connect({ url: '${server.url}' });`,
      `                console.log(await client.listTools());`,
      '',
    ].join('\n'),
  );
  const stop = () => void server.close({ deadlineMs: 10_000 }).then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});

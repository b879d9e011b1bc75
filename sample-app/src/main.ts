/** Runs the travel desk over stdio (`--stdio`) or Streamable HTTP on 127.0.0.1:3000/mcp. */
import 'reflect-metadata';
import { serveStdio } from 'onemodelcontext';
import { createTravelDesk } from './app';

async function main(): Promise<void> {
  const app = createTravelDesk({ requestStateKey: process.env.REQUEST_STATE_KEY || undefined });
  if (process.argv.includes('--stdio')) {
    const { closed } = await serveStdio(app);
    await closed;
    process.exit(0);
  }
  throw new Error('HTTP serving is not wired yet; run with --stdio');
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});

/**
 * Legacy `server-sse-polling` (SEP-1699, 2025-11-25): the tool asks the HTTP transport to close its
 * POST stream mid-call; the client reconnects with GET + Last-Event-ID and gets the result from the
 * event store. Elsewhere (stdio, 2026-07-28) closing is a no-op and the call simply completes.
 */
import { Context, Tool } from '../../src';
import { closeSseStream } from '../../src/transports/http';
import { sleep } from '../media';

export class ReconnectionTool {
  @Tool({ name: 'test_reconnection', description: 'Tests SSE stream disconnection and client reconnection (SEP-1699)' })
  async reconnection(ctx: Context): Promise<string> {
    await closeSseStream(ctx.signal);
    // Outlive the client's reconnect (it honours the priming event's retry), so the result is replayed.
    await sleep(100);
    return 'Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.';
  }
}

/** Server-Sent Events framing for JSON-RPC messages (one `data:` line each; JSON has no raw newlines). */
import type { JsonRpcMessage } from '../../protocol/jsonrpc';
import type { StreamSink } from './http-exchange';

export const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache, no-transform',
  // Proxies such as nginx must not buffer a stream whose point is to arrive early.
  'X-Accel-Buffering': 'no',
});

/** `json`, when given, is `JSON.stringify(message)` (made by the server from parts). */
export function sseEvent(message: JsonRpcMessage | null, id?: string, retryMs?: number, json?: string): string {
  let frame = '';
  if (id !== undefined) frame += `id: ${id}\n`;
  if (retryMs !== undefined) frame += `retry: ${retryMs}\n`;
  if (message === null) return `${frame}data: \n\n`;
  return `${frame}event: message\ndata: ${json ?? JSON.stringify(message)}\n\n`;
}

/** Writes events to a stream sink; optional keep-alive comments for long-lived streams. */
export class SseWriter {
  private timer?: NodeJS.Timeout;
  private ended = false;

  constructor(private readonly sink: StreamSink, keepAliveMs = 0) {
    if (keepAliveMs > 0) {
      this.timer = setInterval(() => this.raw(':\n\n'), keepAliveMs);
      this.timer.unref?.();
    }
  }

  get isEnded(): boolean {
    return this.ended;
  }

  event(message: JsonRpcMessage | null, id?: string, retryMs?: number, json?: string): void {
    this.raw(sseEvent(message, id, retryMs, json));
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.timer);
    try {
      this.sink.end();
    } catch {
      // The client already went away.
    }
  }

  private raw(text: string): void {
    if (this.ended) return;
    try {
      this.sink.write(text);
    } catch {
      this.end();
    }
  }
}

/** Reads one SSE response body to its end, handing each JSON message on; returns where it stopped. */
import { SseParser } from './sse-parser';

export interface StreamPosition {
  lastEventId?: string;
  retryMs?: number;
}

export async function readEventStream(
  body: AsyncIterable<Uint8Array>,
  onMessage: (message: unknown) => void,
  from: StreamPosition = {},
): Promise<StreamPosition> {
  const parser = new SseParser((event) => {
    if (event.event !== undefined && event.event !== 'message') return;
    if (event.data.trim() === '') return; // priming event: an id (and retry) without a message
    let value: unknown;
    try {
      value = JSON.parse(event.data);
    } catch {
      return;
    }
    onMessage(value);
  });
  parser.lastEventId = from.lastEventId;
  parser.retryMs = from.retryMs;
  const decoder = new TextDecoder();
  try {
    for await (const chunk of body)
      parser.push(decoder.decode(chunk, { stream: true }));
    parser.push(decoder.decode() + '\n\n');
  } catch {
    // A dropped (or aborted) connection ends the stream like a close; the caller decides what follows.
  }
  return { lastEventId: parser.lastEventId, retryMs: parser.retryMs };
}

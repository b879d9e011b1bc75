/** Incremental text/event-stream parser (WHATWG rules: data/id/retry/event fields, comments, CR/LF/CRLF). */
export interface SseEvent {
  data: string;
  event?: string;
  /** The stream's last event id after this event (it persists across events). */
  lastEventId?: string;
}

export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private eventType?: string;
  private sawField = false;
  lastEventId?: string;
  retryMs?: number;

  constructor(private readonly onEvent: (event: SseEvent) => void) {}

  push(text: string): void {
    this.buffer += text;
    for (;;) {
      const m = /\r\n|\r|\n/.exec(this.buffer);
      if (!m) return;
      // A lone CR at the very end may be half of CRLF: wait for the next chunk.
      if (m[0] === '\r' && m.index === this.buffer.length - 1) return;
      const line = this.buffer.slice(0, m.index);
      this.buffer = this.buffer.slice(m.index + m[0].length);
      this.line(line);
    }
  }

  private line(line: string): void {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    this.sawField = true;
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.eventType = value;
    else if (field === 'id' && !value.includes('\0')) this.lastEventId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value);
  }

  private dispatch(): void {
    const data = this.data.join('\n');
    const had = this.data.length > 0;
    this.data = [];
    const type = this.eventType;
    this.eventType = undefined;
    if (!this.sawField) return;
    this.sawField = false;
    if (had) this.onEvent({ data, event: type, lastEventId: this.lastEventId });
  }
}

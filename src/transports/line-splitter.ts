/**
 * Splits a byte stream into newline-terminated frames with a size cap. An oversized frame is
 * dropped whole (reported once) and reading resumes at the next newline: memory stays bounded.
 * Frames are decoded as strict UTF-8: a frame with invalid bytes is reported, not turned into U+FFFD.
 */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true }); // stateless between whole-buffer decodes

export class LineSplitter {
  private chunks: Buffer[] = [];
  private size = 0;
  private discarding = false;

  constructor(
    private readonly maxFrameBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onOversize: () => void,
    /** A frame that is not valid UTF-8 (default: dropped silently). */
    private readonly onInvalidUtf8: () => void = () => undefined,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl === -1) break;
      this.take(chunk.subarray(start, nl), true);
      start = nl + 1;
    }
    if (start < chunk.length) this.take(chunk.subarray(start), false);
  }

  /** End of input: a last frame without a newline still counts. */
  end(): void {
    if (this.size > 0 && !this.discarding) this.emit();
    this.reset();
  }

  private take(part: Buffer, complete: boolean): void {
    if (!this.discarding) {
      if (this.size + part.length > this.maxFrameBytes) {
        this.discarding = true;
        this.chunks = [];
        this.size = 0;
        this.onOversize();
      } else {
        this.chunks.push(part);
        this.size += part.length;
      }
    }
    if (complete) {
      if (!this.discarding) this.emit();
      this.reset();
    }
  }

  private emit(): void {
    let text: string;
    try {
      text = strictUtf8.decode(Buffer.concat(this.chunks, this.size));
    } catch {
      return this.onInvalidUtf8();
    }
    const line = text.replace(/\r$/, '');
    if (line.trim().length) this.onLine(line);
  }

  private reset(): void {
    this.chunks = [];
    this.size = 0;
    this.discarding = false;
  }
}

/**
 * Refusal log lines, rate-limited: junk tokens arrive as fast as an attacker sends them, and one
 * log line each would let them fill the disk (or drown the one line that matters). Per kind of
 * line, at most `perWindow` lines every `windowMs`; the first line of the next window says how
 * many were left out.
 */
export class LogThrottle {
  private readonly windows = new Map<string, { startMs: number; logged: number; dropped: number }>();

  constructor(
    private readonly perWindow = 5,
    private readonly windowMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The line to log now (with the count left out before it), or undefined to leave it out. */
  admit(kind: string, line: string): string | undefined {
    const now = this.now();
    let w = this.windows.get(kind);
    let note = '';
    if (!w || now - w.startMs >= this.windowMs) {
      if (w && w.dropped > 0) note = ` (${w.dropped} similar lines left out before this one)`;
      w = { startMs: now, logged: 0, dropped: 0 };
      this.windows.set(kind, w);
    }
    if (w.logged >= this.perWindow) {
      w.dropped++;
      return undefined;
    }
    w.logged++;
    return line + note;
  }
}

/**
 * SSE polling (2025-11-25): a handler may ask the transport to close the HTTP stream of its own
 * legacy request while it keeps running; the client reconnects with GET + `Last-Event-ID` and
 * receives what was sent meanwhile, including the result. Keyed by the request's AbortSignal,
 * which every handler has as `ctx.signal`, so no transport object leaks into handler code.
 */
const closers = new WeakMap<AbortSignal, () => Promise<boolean>>();

export function registerStreamCloser(signal: AbortSignal, close: () => Promise<boolean>): void {
  closers.set(signal, close);
}

export function unregisterStreamCloser(signal: AbortSignal): void {
  closers.delete(signal);
}

/**
 * Closes the SSE stream of the request `ctx.signal` belongs to. Resolves true when closed; false
 * when the request is not a resumable legacy HTTP request (stdio, 2026-07-28, stateless, finished).
 */
export function closeSseStream(signal: AbortSignal): Promise<boolean> {
  return closers.get(signal)?.() ?? Promise.resolve(false);
}

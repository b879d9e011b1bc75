/**
 * Server-to-client requests of a legacy connection: ids, pending replies, timeouts and aborts.
 * The transport sends; replies come back through `settle`.
 */
import { FrameworkError } from '../errors/framework-error';
import { ProtocolError } from '../errors/protocol-error';
import type { JsonObject, JsonRpcRequest, JsonRpcResponse, RequestId } from '../protocol/jsonrpc';
import type { ClientRequester } from '../context/legacy-port';

interface Pending {
  resolve(result: unknown): void;
  reject(error: unknown): void;
}

export class OutboundRequests {
  private next = 0;
  private readonly pending = new Map<RequestId, Pending>();

  constructor(private readonly prefix = 's') {}

  /** A requester that writes through `send` (which may differ per request: its SSE stream). */
  requester(send: (request: JsonRpcRequest) => void): ClientRequester {
    return (method, params, { signal, timeoutMs }) => this.request(send, method, params, signal, timeoutMs);
  }

  private request(send: (r: JsonRpcRequest) => void, method: string, params: JsonObject, signal: AbortSignal, timeoutMs: number) {
    return new Promise<unknown>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const id = `${this.prefix}-${++this.next}`;
      const cleanup = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.pending.delete(id);
      };
      const onAbort = () => {
        cleanup();
        reject(signal.reason);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new FrameworkError('OMC_ASK_TIMEOUT', `The client did not answer ${method} within ${timeoutMs} ms.`));
      }, timeoutMs);
      timer.unref?.();
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        resolve: (v) => (cleanup(), resolve(v)),
        reject: (e) => (cleanup(), reject(e)),
      });
      try {
        send({ jsonrpc: '2.0', id, method, params });
      } catch (e) {
        this.pending.get(id)?.reject(e);
      }
    });
  }

  /** Routes a client's response; false when it answers nothing we asked. */
  settle(response: JsonRpcResponse): boolean {
    const p = response.id === null || response.id === undefined ? undefined : this.pending.get(response.id);
    if (!p) return false;
    if ('error' in response) p.reject(new ProtocolError(response.error.code, response.error.message, response.error.data));
    else p.resolve(response.result);
    return true;
  }

  /** Fails every pending request (the connection closed). */
  rejectAll(reason: unknown): void {
    for (const p of [...this.pending.values()]) p.reject(reason);
  }

  get size(): number {
    return this.pending.size;
  }
}

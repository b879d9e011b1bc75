/**
 * Server-to-client requests of a legacy connection: ids, pending replies, timeouts and aborts.
 * The transport sends; replies come back through `settle`. A request we stop waiting for (timeout,
 * or the asking request was cancelled or shut down) is cancelled at the client too, with
 * `notifications/cancelled`, so it can dismiss the form or stop sampling (every legacy revision's
 * cancellation rule: either side may cancel a request it sent).
 */
import { FrameworkError } from '../errors/framework-error';
import { ProtocolError } from '../errors/protocol-error';
import type { JsonObject, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse, RequestId } from '../protocol/jsonrpc';

/** Writes one message on the channel of the asking request. */
export type OutboundSend = (message: JsonRpcRequest | JsonRpcNotification) => void;
import type { ClientRequester } from '../context/legacy-port';
import { unlimitedAsks, type SessionAsks } from '../server/legacy/pending-asks';

interface Pending {
  resolve(result: unknown): void;
  reject(error: unknown): void;
  /** Stops waiting: the asker gets OMC_ASK_UNAVAILABLE, the client a notifications/cancelled. */
  withdraw(reason: string): void;
}

export class OutboundRequests {
  private next = 0;
  private readonly pending = new Map<RequestId, Pending>();

  constructor(
    private readonly prefix = 's',
    /**
     * This session's share of the server's pending-ask budget (count per session, bytes per session,
     * per principal and in all): each waiting request holds a timer, a handler and its params.
     */
    private readonly asks: SessionAsks = unlimitedAsks(),
  ) {}

  /** A requester that writes through `send` (which may differ per request: its SSE stream). */
  requester(send: OutboundSend): ClientRequester {
    return (method, params, { signal, timeoutMs }) => this.request(send, method, params, signal, timeoutMs);
  }

  private request(send: OutboundSend, method: string, params: JsonObject, signal: AbortSignal, timeoutMs: number) {
    return new Promise<unknown>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      let bytes: number;
      try {
        bytes = method.length + JSON.stringify(params ?? {}).length;
      } catch (e) {
        return reject(e);
      }
      const refused = this.asks.take(method, bytes);
      if (refused !== undefined) return reject(new FrameworkError('OMC_ASK_LIMIT', refused));
      const id = `${this.prefix}-${++this.next}`;
      let ended = false;
      const cleanup = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.pending.delete(id);
        if (!ended) this.asks.release(bytes);
        ended = true;
      };
      const giveUp = (reason: string, error: unknown) => {
        cleanup();
        cancelAtClient(send, id, reason);
        reject(error);
      };
      const onAbort = () => giveUp('The request that asked was cancelled.', signal.reason);
      const timer = setTimeout(() => {
        const why = `The client did not answer ${method} within ${timeoutMs} ms.`;
        giveUp(why, new FrameworkError('OMC_ASK_TIMEOUT', why));
      }, timeoutMs);
      timer.unref?.();
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        resolve: (v) => (cleanup(), resolve(v)),
        reject: (e) => (cleanup(), reject(e)),
        withdraw: (why) => giveUp(why, new FrameworkError('OMC_ASK_UNAVAILABLE', why)),
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
    if ('error' in response)
      p.reject(new ProtocolError(response.error.code, response.error.message, response.error.data));
    else p.resolve(response.result);
    return true;
  }

  /** Fails every pending request (the connection closed). */
  rejectAll(reason: unknown): void {
    for (const p of [...this.pending.values()]) p.reject(reason);
  }

  /** Withdraws every question still waiting (a shutdown), telling the client; returns how many there were. */
  withdrawAll(reason: string): number {
    const pending = [...this.pending.values()];
    for (const p of pending) p.withdraw(reason);
    return pending.length;
  }

  get size(): number {
    return this.pending.size;
  }
}

function cancelAtClient(send: OutboundSend, requestId: RequestId, reason: string): void {
  try {
    send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason } });
  } catch {
    // The channel is gone: nothing is waiting for the answer there either.
  }
}

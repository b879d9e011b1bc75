/**
 * The message-stream half shared by stdio and in-memory: ids to pending replies, notifications to
 * the request they belong to (progress token, subscription id), everything else to the sink.
 */
import type { JsonObject, JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, RequestId } from '../protocol/jsonrpc';
import { Meta } from '../protocol/meta';
import { decodeValue } from '../protocol/jsonrpc';
import type { ClientTransport, InboundSink, TransportReply, TransportRequestOptions } from './transport';
import { transportError } from './errors';
import { FrameworkError } from '../errors/framework-error';

interface Pending {
  resolve(reply: TransportReply): void;
  reject(error: unknown): void;
  onNotification?: (n: JsonRpcNotification) => void;
  progressToken?: unknown;
}

export abstract class StreamTransport implements ClientTransport {
  abstract readonly kind: 'stdio' | 'memory';
  protected sink?: InboundSink;
  private readonly pending = new Map<RequestId, Pending>();
  protected closed = false;

  protected abstract write(message: JsonRpcMessage): void;
  abstract close(): Promise<void>;

  async start(sink: InboundSink): Promise<void> {
    this.sink = sink;
  }

  request(message: JsonRpcRequest, options: TransportRequestOptions): Promise<TransportReply> {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(transportError('The connection is closed.'));
      const signal = options.signal;
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        this.pending.delete(message.id);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => signal?.removeEventListener('abort', onAbort);
      const meta = message.params?._meta as JsonObject | undefined;
      this.pending.set(message.id, {
        resolve: (r) => (done(), resolve(r)),
        reject: (e) => (done(), reject(e)),
        onNotification: options.onNotification,
        progressToken: meta?.progressToken,
      });
      try {
        this.write(message);
      } catch (e) {
        this.pending.delete(message.id);
        done();
        reject(e);
      }
    });
  }

  async notify(message: JsonRpcNotification): Promise<void> {
    if (!this.closed) this.write(message);
  }

  /** One parsed message from the server. */
  protected receive(value: unknown): void {
    const d = decodeValue(value);
    switch (d.kind) {
      case 'response': {
        const id = d.message.id;
        const p = id === null || id === undefined ? undefined : this.pending.get(id);
        if (p) {
          this.pending.delete(id!);
          p.resolve({ response: d.message });
        }
        return;
      }
      case 'notification':
        return this.routeNotification(d.message);
      case 'request':
        void this.answer(d.message);
        return;
      case 'batch':
        d.items.forEach((item) => this.receive(item));
        return;
      case 'invalid':
        return this.refuseMalformed(value, d.error.error.message);
      default:
        return;
    }
  }

  /** A malformed response to a request we sent fails that request now, rather than at its timeout. */
  private refuseMalformed(value: unknown, reason: string): void {
    const v = value as { id?: unknown; method?: unknown } | null;
    if (typeof v !== 'object' || v === null || v.method !== undefined) return;
    const id = v.id;
    const p = typeof id === 'string' || typeof id === 'number' ? this.pending.get(id) : undefined;
    if (!p) return;
    this.pending.delete(id as RequestId);
    p.reject(new FrameworkError('OMC_CLIENT_BAD_REPLY', `The server's reply to request ${id} is malformed (${reason}).`));
  }

  /** The peer is gone: every pending request fails. */
  protected failAll(reason: string): void {
    const error = transportError(reason);
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.reject(error);
    }
  }

  private routeNotification(n: JsonRpcNotification): void {
    const params = n.params ?? {};
    const subscription = (params._meta as JsonObject | undefined)?.[Meta.subscriptionId];
    let owner: Pending | undefined;
    if (subscription !== undefined) owner = this.pending.get(subscription as RequestId);
    else if (params.progressToken !== undefined) {
      for (const p of this.pending.values()) if (p.progressToken === params.progressToken) owner = p;
    }
    if (owner?.onNotification) owner.onNotification(n);
    else this.sink?.notification(n);
  }

  private async answer(request: JsonRpcRequest): Promise<void> {
    if (!this.sink) return;
    const reply = await this.sink.request(request);
    if (!this.closed) this.write(reply);
  }
}

/**
 * One bidirectional message stream (stdio, in-memory): era pinning, a legacy session, in-flight
 * requests with cancellation, server-to-client requests, and change notifications.
 */
import type { Principal } from '../context/principal';
import { classifyMessage } from '../protocol/classify';
import { ErrorCode } from '../protocol/error-codes';
import {
  decodeText,
  decodeValue,
  failure,
  type Decoded,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type RequestId,
  withUnknownId,
} from '../protocol/jsonrpc';
import { legacyFeatures, MODERN_VERSION } from '../protocol/versions';
import { LegacySession } from '../server/legacy/legacy-session';
import type { ListenStream, Reply, ServerEndpoint } from '../server/server-endpoint';
import { OutboundRequests } from './outbound-requests';

export const MAX_BATCH = 100;

/** A response to send: a server's Reply (its `json` when it made one), or one of the connection's own. */
type Outgoing = Pick<Reply, 'message' | 'json'>;
const own = (message: JsonRpcResponse): Outgoing => ({ message });

export interface ConnectionOptions {
  principal?: Principal;
  /** What carries the messages (telemetry's `network.transport`); in-memory unless stdio says so. */
  transport?: 'stdio' | 'memory';
}

export class MessageConnection {
  private era: 'modern' | 'legacy' | undefined;
  private readonly session = new LegacySession();
  private readonly inflight = new Map<RequestId, AbortController>();
  private readonly running = new Set<Promise<void>>();
  private readonly outbound = new OutboundRequests(
    's',
    this.server.settings.pendingAsks.session(this.options.principal?.id),
  );
  private readonly subscriptions = new Map<RequestId, ListenStream>();
  private stopRegistryEvents?: () => void;
  private closed = false;

  constructor(
    private readonly server: ServerEndpoint,
    /** `json`, when given, is `JSON.stringify(message)`, made by the server (ServerEndpoint's Reply). */
    private readonly send: (message: JsonRpcMessage | JsonRpcMessage[], json?: string) => void,
    private readonly options: ConnectionOptions = {},
  ) {}

  /** One text frame (a line on stdio). */
  receiveText(text: string): void {
    this.receive(decodeText(text));
  }

  /** A frame that could not be read (e.g. invalid UTF-8): answered as a parse error. */
  receiveUnreadable(reason: string): void {
    this.receive({ kind: 'invalid', error: failure(null, ErrorCode.ParseError, `Parse error: ${reason}`) });
  }

  /** One already-parsed message (in-memory transports). */
  receiveValue(value: unknown): void {
    this.receive(decodeValue(value));
  }

  /** Stops reading: in-flight calls finish, subscriptions end, then this resolves. */
  async drain(): Promise<void> {
    this.closed = true;
    while (this.running.size) await Promise.allSettled([...this.running]);
    for (const [, s] of this.subscriptions) this.write(s.close());
    this.subscriptions.clear();
    this.stopRegistryEvents?.();
    this.outbound.rejectAll(new Error('connection closed'));
  }

  /** Aborts everything (the peer is gone). */
  abort(): void {
    for (const c of this.inflight.values()) c.abort(new Error('connection closed'));
    this.outbound.rejectAll(new Error('connection closed'));
    this.stopRegistryEvents?.();
  }

  private receive(d: Decoded): void {
    switch (d.kind) {
      case 'invalid':
        return this.write(withUnknownId(d.error, this.revision()));
      case 'response':
        this.outbound.settle(d.message);
        return;
      case 'notification':
        return this.notification(d.message);
      case 'request':
        return this.track(this.request(d.message).then((r) => r && this.write(r.message, r.json)));
      case 'batch':
        return this.track(this.batch(d.items));
    }
  }

  private async batch(items: unknown[]): Promise<void> {
    const allowed = this.era === 'legacy' && legacyFeatures(this.session.protocolVersion).batching;
    if (!allowed || items.length === 0 || items.length > MAX_BATCH) {
      const why = !allowed
        ? 'batches are only accepted on protocol revision 2025-03-26'
        : `a batch holds 1 to ${MAX_BATCH} messages`;
      return this.write(failure(null, ErrorCode.InvalidRequest, `Invalid Request: ${why}`));
    }
    const replies = await Promise.all(
      items.map(async (item) => {
        const d = decodeValue(item);
        if (d.kind === 'request') {
          if (d.message.method === 'initialize')
            return failure(d.message.id, ErrorCode.InvalidRequest, 'initialize cannot be batched');
          return (await this.request(d.message))?.message;
        }
        if (d.kind === 'invalid') return d.error;
        if (d.kind === 'batch') return failure(null, ErrorCode.InvalidRequest, 'nested batch');
        this.receive(d);
        return undefined;
      }),
    );
    const out = replies.filter((r): r is JsonRpcResponse => r !== undefined);
    if (out.length) this.send(out);
  }

  private notification(n: JsonRpcNotification): void {
    if (n.method === 'notifications/cancelled') {
      const id = n.params?.requestId;
      if (typeof id !== 'string' && typeof id !== 'number') return;
      const sub = this.subscriptions.get(id);
      if (sub) {
        // The client ended it: nothing more is sent for that id, not even the final result (stdio.mdx).
        this.subscriptions.delete(id);
        sub.close();
        return;
      }
      this.inflight.get(id)?.abort(new Error(typeof n.params?.reason === 'string' ? n.params.reason : 'cancelled'));
      return;
    }
    if (this.era === 'legacy') {
      this.server.legacyNotification(n, this.session);
      if (n.method === 'notifications/initialized') this.followChanges();
    }
  }

  /** The response to send (with its JSON text when the server made it), or undefined for none. */
  private async request(req: JsonRpcRequest): Promise<Outgoing | undefined> {
    if (this.closed) return own(failure(req.id, ErrorCode.InternalError, 'Connection is closing'));
    const claimed = classifyMessage(req.params).era;
    const era =
      this.era ??
      (claimed === 'modern' || (claimed === 'invalid' && req.method !== 'initialize') ? 'modern' : 'legacy');
    if (this.era === 'modern' && req.method === 'initialize' && claimed !== 'modern') {
      return own(
        failure(
          req.id,
          ErrorCode.InvalidRequest,
          'This connection speaks protocol revision 2026-07-28; initialize is not available on it',
        ),
      );
    }
    const controller = new AbortController();
    if (this.inflight.has(req.id))
      return own(failure(req.id, ErrorCode.InvalidRequest, `Request id ${String(req.id)} is already in flight`));
    this.inflight.set(req.id, controller);
    try {
      const io = {
        signal: controller.signal,
        notify: (n: JsonRpcNotification) => {
          if (!controller.signal.aborted) this.write(n);
        },
        principal: this.options.principal,
        transport: this.options.transport ?? 'memory',
        requester: era === 'legacy' ? this.outbound.requester((r) => this.write(r)) : undefined,
        // One channel for the whole connection: a late notification goes where the request's went.
        notifySession: era === 'legacy' ? (n: JsonRpcNotification) => void (this.closed || this.write(n)) : undefined,
      };
      const answer =
        era === 'modern' ? this.server.dispatchModern(req, io) : this.server.dispatchLegacy(req, this.session, io);
      if (!(answer instanceof Promise) && answer.kind === 'stream') return this.listen(req.id, answer);
      const reply = await answer;
      if (this.era === undefined && 'result' in reply.message) this.era = era;
      if (era === 'legacy' && req.method === 'initialize' && 'result' in reply.message) this.era = 'legacy';
      // A cancelled request gets no response (spec: SHOULD NOT respond).
      return controller.signal.aborted ? undefined : reply;
    } finally {
      this.inflight.delete(req.id);
    }
  }

  /** A listen stream: the ack now, then its notifications until the client cancels it or the connection drains. */
  private listen(id: RequestId, stream: ListenStream): undefined {
    this.subscriptions.set(id, stream);
    this.era ??= 'modern';
    this.write(stream.ack);
    stream.forward(
      (n) => this.write(n),
      (final) => {
        // The server ended it (a fleet-wide quota, an unavailable store): its final message, once.
        if (this.subscriptions.get(id) !== stream) return;
        this.subscriptions.delete(id);
        this.write(final);
      },
    );
    return undefined;
  }

  /** Legacy sessions hear list changes and updates of subscribed resources once initialized. */
  private followChanges(): void {
    if (this.stopRegistryEvents) return;
    this.stopRegistryEvents = this.server.followChanges(this.session, (n) => this.write(n));
  }

  /** The revision this connection speaks, once its first message pinned the era. */
  private revision(): string | undefined {
    if (this.era === 'modern') return MODERN_VERSION;
    return this.era === 'legacy' ? this.session.protocolVersion : undefined;
  }

  private track(p: Promise<unknown>): void {
    const done: Promise<void> = p.then(
      () => undefined,
      () => undefined,
    );
    this.running.add(done);
    void done.finally(() => this.running.delete(done));
  }

  private write(message: JsonRpcMessage, json?: string): void {
    try {
      this.send(message, json);
    } catch {
      // The peer went away mid-write; nothing to tell it.
    }
  }
}

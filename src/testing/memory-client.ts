/**
 * Test kit v0: an in-memory client wired to an application through the same MessageConnection
 * the stdio transport uses. Speaks either era; answers legacy server requests with handlers.
 */
import type { EndpointHost } from '../server/server-endpoint';
import type { JsonObject, JsonRpcMessage, JsonRpcNotification, JsonRpcResponse, RequestId } from '../protocol/jsonrpc';
import { Meta } from '../protocol/meta';
import { MODERN_VERSION, LATEST_LEGACY_VERSION } from '../protocol/versions';
import { MessageConnection } from '../transports/message-connection';
import {
  validateMemoryClientOptions,
  type MemoryClientOptions,
  type ServerRequestHandler,
} from './memory-client-options';

export type { MemoryClientOptions, ServerRequestHandler };

export class MemoryClient {
  readonly notifications: JsonRpcNotification[] = [];
  private readonly connection: MessageConnection;
  private readonly waiting = new Map<RequestId, (r: JsonRpcResponse) => void>();
  private nextId = 0;

  private constructor(app: EndpointHost, private readonly options: MemoryClientOptions) {
    this.connection = new MessageConnection(app.endpoint, (m, json) => this.deliver(m, json), {
      principal: options.principal,
    });
  }

  static async connect(app: EndpointHost, init: MemoryClientOptions): Promise<MemoryClient> {
    const options = validateMemoryClientOptions(init);
    const client = new MemoryClient(app, options);
    if (options.era === 'legacy') {
      const init = await client.raw('initialize', {
        protocolVersion: options.protocolVersion ?? LATEST_LEGACY_VERSION,
        capabilities: options.capabilities ?? {},
        clientInfo: options.clientInfo ?? { name: 'memory-client', version: '0.0.0' },
      });
      if ('error' in init) throw new Error(`initialize failed: ${init.error.message}`);
      client.notify('notifications/initialized');
    }
    return client;
  }

  /** Sends a request and resolves with the whole JSON-RPC response (result or error). */
  raw(method: string, params: JsonObject = {}): Promise<JsonRpcResponse> {
    const id = ++this.nextId;
    const withMeta = this.options.era === 'modern' && method !== 'initialize' ? this.envelope(params) : params;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      // Round-trip through JSON like a real wire, so nothing shares object identity with the server.
      this.connection.receiveValue(JSON.parse(JSON.stringify({ jsonrpc: '2.0', id, method, params: withMeta })));
    });
  }

  /** Sends a request; resolves with its result or rejects with its error. */
  async request(method: string, params: JsonObject = {}): Promise<JsonObject> {
    const r = await this.raw(method, params);
    if ('error' in r) throw Object.assign(new Error(r.error.message), { code: r.error.code, data: r.error.data });
    return r.result;
  }

  notify(method: string, params?: JsonObject): void {
    this.connection.receiveValue({ jsonrpc: '2.0', method, ...(params ? { params } : {}) });
  }

  async close(): Promise<void> {
    await this.connection.drain();
  }

  private envelope(params: JsonObject): JsonObject {
    const meta = (params._meta as JsonObject | undefined) ?? {};
    return {
      ...params,
      _meta: {
        [Meta.protocolVersion]: MODERN_VERSION,
        [Meta.clientCapabilities]: this.options.capabilities ?? {},
        [Meta.clientInfo]: this.options.clientInfo ?? { name: 'memory-client', version: '0.0.0' },
        ...meta,
      },
    };
  }

  private deliver(m: JsonRpcMessage | JsonRpcMessage[], json?: string): void {
    const messages = JSON.parse(json ?? JSON.stringify(m)) as JsonRpcMessage | JsonRpcMessage[];
    for (const msg of Array.isArray(messages) ? messages : [messages]) {
      if ('method' in msg && 'id' in msg) void this.answer(msg.id, msg.method, msg.params ?? {});
      else if ('method' in msg) this.notifications.push(msg);
      else if (msg.id !== null && msg.id !== undefined) {
        const w = this.waiting.get(msg.id);
        this.waiting.delete(msg.id);
        w?.(msg);
      }
    }
  }

  private async answer(id: RequestId, method: string, params: JsonObject): Promise<void> {
    const handler = this.options.handlers?.[method];
    let reply: JsonRpcMessage;
    if (!handler) reply = { jsonrpc: '2.0', id, error: { code: -32601, message: `No handler for ${method}` } };
    else {
      try {
        reply = { jsonrpc: '2.0', id, result: (await handler(params)) as JsonObject };
      } catch (e) {
        reply = { jsonrpc: '2.0', id, error: { code: -32603, message: e instanceof Error ? e.message : String(e) } };
      }
    }
    this.connection.receiveValue(JSON.parse(JSON.stringify(reply)));
  }
}

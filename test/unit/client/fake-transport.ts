/** A scripted ClientTransport: each request is answered by a function of the request; all are recorded. */
import type { ClientTransport, InboundSink, TransportReply, TransportRequestOptions } from '../../../src';
import type { JsonObject, JsonRpcNotification, JsonRpcRequest } from '../../../src/protocol/jsonrpc';

export type Reply =
  { result: JsonObject } | { error: { code: number; message: string; data?: unknown }; httpStatus?: number };
export type Script = (request: JsonRpcRequest, index: number) => Reply | Promise<Reply>;

export const discoverResult: JsonObject = {
  resultType: 'complete',
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: {} },
  _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'fake', version: '1' } },
};

export class FakeTransport implements ClientTransport {
  readonly requests: { message: JsonRpcRequest; headers?: Record<string, string> }[] = [];
  readonly notifications: JsonRpcNotification[] = [];
  sink?: InboundSink;

  constructor(
    private readonly script: Script,
    readonly kind: 'http' | 'stdio' | 'memory' = 'memory',
  ) {}

  async start(sink: InboundSink): Promise<void> {
    this.sink = sink;
  }

  /** Requests other than the connect-time discover probe. */
  get calls(): JsonRpcRequest[] {
    return this.requests.map((r) => r.message).filter((m) => m.method !== 'server/discover');
  }

  async request(message: JsonRpcRequest, options: TransportRequestOptions): Promise<TransportReply> {
    // Copy through JSON like a wire, so later mutation cannot fake byte-exactness.
    const copy = JSON.parse(JSON.stringify(message)) as JsonRpcRequest;
    this.requests.push({ message: copy, headers: options.headers });
    const pending = Promise.resolve(
      message.method === 'server/discover' ? { result: discoverResult } : this.script(copy, this.calls.length - 1),
    );
    const aborted = new Promise<never>((_, reject) => {
      if (options.signal?.aborted) reject(options.signal.reason);
      options.signal?.addEventListener('abort', () => reject(options.signal!.reason), { once: true });
    });
    const reply = await Promise.race([pending, aborted]);
    if ('result' in reply) return { response: { jsonrpc: '2.0', id: message.id, result: reply.result } };
    return { response: { jsonrpc: '2.0', id: message.id, error: reply.error }, httpStatus: reply.httpStatus };
  }

  async notify(message: JsonRpcNotification): Promise<void> {
    this.notifications.push(message);
  }

  async close(): Promise<void> {}
}

export const complete = (text = 'done'): Reply => ({
  result: { resultType: 'complete', content: [{ type: 'text', text }] },
});
export const elicit = (message = 'Name?') => ({
  method: 'elicitation/create',
  params: { mode: 'form', message, requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } },
});

/** In-memory transport: the app's own MessageConnection, with a JSON round trip like a real wire. */
import type { EndpointHost } from '../server/server-endpoint';
import type { Principal } from '../context/principal';
import type { JsonRpcMessage } from '../protocol/jsonrpc';
import { MessageConnection } from '../transports/message-connection';
import { StreamTransport } from './stream-transport';

export class MemoryTransport extends StreamTransport {
  readonly kind = 'memory' as const;
  private readonly connection: MessageConnection;

  constructor(app: EndpointHost, principal?: Principal) {
    super();
    this.connection = new MessageConnection(
      app.endpoint,
      (m, json) => {
        const copy = JSON.parse(json ?? JSON.stringify(m)) as unknown;
        // Deliver on a later tick, as a real wire would, so reentrancy matches stdio.
        queueMicrotask(() => this.receive(copy));
      },
      { principal },
    );
  }

  protected write(message: JsonRpcMessage): void {
    this.connection.receiveValue(JSON.parse(JSON.stringify(message)));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.connection.abort();
    await this.connection.drain();
    this.failAll('The connection closed.');
  }
}

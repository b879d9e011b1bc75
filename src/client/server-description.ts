/** What the client learnt about the server when it connected (or at the last `discover()`). */
import type { JsonObject } from '../protocol/jsonrpc';

export interface ServerDescription {
  protocolVersion: string;
  era: 'modern' | 'legacy';
  serverInfo?: JsonObject;
  capabilities: JsonObject;
  instructions?: string;
  /** 2026 `server/discover` versions (empty on legacy). */
  supportedVersions: string[];
}

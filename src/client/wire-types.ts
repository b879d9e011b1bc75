/** Shapes the client reads from list results and notifications (both eras; extra keys are kept). */
import type { JsonObject } from '../protocol/jsonrpc';
import type { Annotations, Icon, ToolAnnotations } from '../protocol/types';

export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: JsonObject;
  [key: string]: unknown;
}

export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}
export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: JsonObject;
  [key: string]: unknown;
}

export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
  _meta?: JsonObject;
  [key: string]: unknown;
}
export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  _meta?: JsonObject;
  [key: string]: unknown;
}

/** One page of a list; `nextCursor` absent on the last page. 2026 adds cache hints. */
export interface Page<T> {
  items: T[];
  nextCursor?: string;
  ttlMs?: number;
  cacheScope?: 'public' | 'private';
}

export interface CompleteRequest {
  ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
  argument: { name: string; value: string };
  context?: { arguments?: Record<string, string> };
}
export interface CompleteResult {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

/** What `listen` subscribes to (the 2026 `subscriptions/listen` filter; legacy emulates it). */
export interface ListenFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

/** A change notification delivered by `listen`. */
export interface ChangeNotification {
  method:
    | 'notifications/tools/list_changed'
    | 'notifications/prompts/list_changed'
    | 'notifications/resources/list_changed'
    | 'notifications/resources/updated'
    | (string & {});
  params?: JsonObject;
}

export interface ServerDescription {
  protocolVersion: string;
  era: 'modern' | 'legacy';
  serverInfo?: JsonObject;
  capabilities: JsonObject;
  instructions?: string;
  /** 2026 `server/discover` versions (empty on legacy). */
  supportedVersions: string[];
}

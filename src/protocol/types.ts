/**
 * Wire shapes of the MCP schema (a subset, both eras), shared by server and client. They are type
 * aliases, not interfaces, so each is a plain JSON object (assignable to `JsonObject`) without casts.
 */
import type { JsonObject } from './jsonrpc';

export type Implementation = {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
};

export type Icon = {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
};

export type ClientCapabilities = {
  experimental?: JsonObject;
  roots?: { listChanged?: boolean };
  sampling?: { context?: JsonObject; tools?: JsonObject };
  elicitation?: { form?: JsonObject; url?: JsonObject };
  extensions?: JsonObject;
  tasks?: JsonObject;
};

export type ServerCapabilities = {
  experimental?: JsonObject;
  logging?: JsonObject;
  completions?: JsonObject;
  prompts?: { listChanged?: boolean };
  resources?: { subscribe?: boolean; listChanged?: boolean };
  tools?: { listChanged?: boolean };
  extensions?: JsonObject;
};

export type Annotations = {
  audience?: ('user' | 'assistant')[];
  priority?: number;
  lastModified?: string;
};

export type TextContent = { type: 'text'; text: string; annotations?: Annotations; _meta?: JsonObject };
export type ImageContent = {
  type: 'image';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: JsonObject;
};
export type AudioContent = {
  type: 'audio';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: JsonObject;
};
export type TextResourceContents = { uri: string; mimeType?: string; text: string; _meta?: JsonObject };
export type BlobResourceContents = { uri: string; mimeType?: string; blob: string; _meta?: JsonObject };
export type ResourceContents = TextResourceContents | BlobResourceContents;
export type EmbeddedResource = {
  type: 'resource';
  resource: ResourceContents;
  annotations?: Annotations;
  _meta?: JsonObject;
};
export type ResourceLink = {
  type: 'resource_link';
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  _meta?: JsonObject;
};
export type ContentBlock = TextContent | ImageContent | AudioContent | EmbeddedResource | ResourceLink;

export type CallToolResult = {
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: JsonObject;
};

export type PromptMessage = {
  role: 'user' | 'assistant';
  content: ContentBlock;
};

export type GetPromptResult = {
  description?: string;
  messages: PromptMessage[];
  _meta?: JsonObject;
};

export type ReadResourceResult = {
  contents: ResourceContents[];
  _meta?: JsonObject;
};

export type ToolAnnotations = {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
};

export type SamplingContent = TextContent | ImageContent | AudioContent | JsonObject;
export type SamplingMessage = {
  role: 'user' | 'assistant';
  content: SamplingContent | SamplingContent[];
};
export type ModelPreferences = {
  hints?: { name?: string }[];
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
};
export type CreateMessageParams = {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  modelPreferences?: ModelPreferences;
  temperature?: number;
  stopSequences?: string[];
  metadata?: JsonObject;
  includeContext?: 'none' | 'thisServer' | 'allServers';
  tools?: JsonObject[];
  toolChoice?: { mode: 'auto' | 'required' | 'none' };
};
export type CreateMessageResult = {
  role: 'assistant';
  content: SamplingContent | SamplingContent[];
  model: string;
  stopReason?: string;
  _meta?: JsonObject;
};
export type Root = {
  uri: string;
  name?: string;
  _meta?: JsonObject;
};
export type ElicitAction = 'accept' | 'decline' | 'cancel';
export type ElicitResult = {
  action: ElicitAction;
  content?: Record<string, string | number | boolean | string[]>;
  _meta?: JsonObject;
};

/** An embedded input request of a 2026 `input_required` result (no jsonrpc, no id). */
export type InputRequest = {
  method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
  params: JsonObject;
};

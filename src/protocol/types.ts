/** Wire shapes used by the dispatcher (a subset of the MCP schema, both eras). */
import type { JsonObject } from './jsonrpc';

export interface Implementation {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
}

export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

export interface ClientCapabilities {
  experimental?: JsonObject;
  roots?: { listChanged?: boolean };
  sampling?: { context?: JsonObject; tools?: JsonObject };
  elicitation?: { form?: JsonObject; url?: JsonObject };
  extensions?: JsonObject;
  tasks?: JsonObject;
}

export interface ServerCapabilities {
  experimental?: JsonObject;
  logging?: JsonObject;
  completions?: JsonObject;
  prompts?: { listChanged?: boolean };
  resources?: { subscribe?: boolean; listChanged?: boolean };
  tools?: { listChanged?: boolean };
  extensions?: JsonObject;
}

export interface Annotations {
  audience?: ('user' | 'assistant')[];
  priority?: number;
  lastModified?: string;
}

export type TextContent = { type: 'text'; text: string; annotations?: Annotations; _meta?: JsonObject };
export type ImageContent = { type: 'image'; data: string; mimeType: string; annotations?: Annotations; _meta?: JsonObject };
export type AudioContent = { type: 'audio'; data: string; mimeType: string; annotations?: Annotations; _meta?: JsonObject };
export type TextResourceContents = { uri: string; mimeType?: string; text: string; _meta?: JsonObject };
export type BlobResourceContents = { uri: string; mimeType?: string; blob: string; _meta?: JsonObject };
export type ResourceContents = TextResourceContents | BlobResourceContents;
export type EmbeddedResource = { type: 'resource'; resource: ResourceContents; annotations?: Annotations; _meta?: JsonObject };
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

export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: JsonObject;
}

export interface PromptMessage {
  role: 'user' | 'assistant';
  content: ContentBlock;
}

export interface GetPromptResult {
  description?: string;
  messages: PromptMessage[];
  _meta?: JsonObject;
}

export interface ReadResourceResult {
  contents: ResourceContents[];
  _meta?: JsonObject;
}

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export type SamplingContent = TextContent | ImageContent | AudioContent | JsonObject;
export interface SamplingMessage {
  role: 'user' | 'assistant';
  content: SamplingContent | SamplingContent[];
}
export interface ModelPreferences {
  hints?: { name?: string }[];
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
}
export interface CreateMessageParams {
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
}
export interface CreateMessageResult {
  role: 'assistant';
  content: SamplingContent | SamplingContent[];
  model: string;
  stopReason?: string;
  _meta?: JsonObject;
}
export interface Root {
  uri: string;
  name?: string;
  _meta?: JsonObject;
}
export type ElicitAction = 'accept' | 'decline' | 'cancel';
export interface ElicitResult {
  action: ElicitAction;
  content?: Record<string, string | number | boolean | string[]>;
  _meta?: JsonObject;
}

/** An embedded input request of a 2026 `input_required` result (no jsonrpc, no id). */
export interface InputRequest {
  method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
  params: JsonObject;
}

/**
 * The entries of `tools/list`, `prompts/list`, `resources/list` and `resources/templates/list`
 * (2026-07-28 shape; legacy revisions send a subset). Keys this version does not name are kept:
 * a newer server may send more.
 */
import type { JsonObject } from './jsonrpc';
import type { Annotations, Icon, ToolAnnotations } from './types';

export type Tool = {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: JsonObject;
  [key: string]: unknown;
};

export type PromptArgument = {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
};

export type Prompt = {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: JsonObject;
  [key: string]: unknown;
};

export type Resource = {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
  _meta?: JsonObject;
  [key: string]: unknown;
};

export type ResourceTemplate = {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  _meta?: JsonObject;
  [key: string]: unknown;
};

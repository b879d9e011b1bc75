/**
 * Turns what a handler returned into the wire result of its method.
 *
 * replies/ shapes what goes back: results (this file), the result envelope of each era, handler
 * errors vetted into codes, pagination, and the facts telemetry records of a reply.
 */
import { ProtocolError } from '../../errors/protocol-error';
import type { JsonObject } from '../../protocol/jsonrpc';
import type {
  CallToolResult,
  ContentBlock,
  GetPromptResult,
  PromptMessage,
  ReadResourceResult,
  ResourceContents,
} from '../../protocol/types';
import type { ResourceDefinition, ResourceTemplateDefinition, ToolDefinition } from '../../registry/definitions';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const CONTENT_TYPES = new Set(['text', 'image', 'audio', 'resource', 'resource_link']);
function isContentBlock(v: unknown): v is ContentBlock {
  return isRecord(v) && typeof v.type === 'string' && CONTENT_TYPES.has(v.type);
}

export function toolResult(def: ToolDefinition, value: unknown): CallToolResult {
  if (isRecord(value) && Array.isArray(value.content)) return value as CallToolResult;
  if (def.outputSchema !== undefined) {
    // Every return value of a tool that declares its output is structured (strings and nothing too),
    // with the serialized JSON beside it as text, as the spec recommends for older clients.
    const structured = value === undefined ? null : (JSON.parse(JSON.stringify(value)) as unknown);
    return {
      content: [{ type: 'text', text: typeof structured === 'string' ? structured : JSON.stringify(structured) }],
      structuredContent: structured,
    };
  }
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  if (value === undefined || value === null) return { content: [] };
  if (isContentBlock(value)) return { content: [value] };
  if (Array.isArray(value) && value.every(isContentBlock)) return { content: value };
  return { content: [{ type: 'text', text: JSON.stringify(value) }] };
}

/**
 * What is wrong with a successful result of a tool that declares an outputSchema: the spec says
 * the server MUST send structured results that conform. Undefined when nothing is.
 */
export function outputProblem(def: ToolDefinition, result: CallToolResult): string | undefined {
  if (!def.checkOutput || result.isError === true) return undefined;
  if (!('structuredContent' in result)) return 'the result has no structuredContent';
  return def.checkOutput(result.structuredContent);
}

/** A tool failure is a result the model can read, not a protocol error (SEP-1303). */
export function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

export function promptResult(value: unknown): GetPromptResult {
  if (isRecord(value) && Array.isArray(value.messages)) return value as GetPromptResult;
  if (typeof value === 'string') return { messages: [{ role: 'user', content: { type: 'text', text: value } }] };
  if (Array.isArray(value)) {
    return {
      messages: value.map((m): PromptMessage =>
        typeof m === 'string' ? { role: 'user', content: { type: 'text', text: m } } : (m as PromptMessage),
      ),
    };
  }
  throw ProtocolError.internal('Prompt handler returned an unsupported value');
}

export function resourceResult(
  def: ResourceDefinition | ResourceTemplateDefinition,
  uri: string,
  value: unknown,
): ReadResourceResult {
  const mimeType = def.mimeType;
  const one = (v: unknown): ResourceContents => {
    if (typeof v === 'string') return withMime({ uri, text: v }, mimeType);
    if (v instanceof Uint8Array) return withMime({ uri, blob: Buffer.from(v).toString('base64') }, mimeType);
    if (isRecord(v) && (typeof v.text === 'string' || typeof v.blob === 'string')) {
      return { uri, ...(mimeType ? { mimeType } : {}), ...v } as ResourceContents;
    }
    throw ProtocolError.internal('Resource handler returned an unsupported value');
  };
  if (isRecord(value) && Array.isArray(value.contents)) return value as ReadResourceResult;
  const contents = Array.isArray(value) ? value.map(one) : [one(value)];
  if (contents.length === 0) throw ProtocolError.internal('Resource handler returned no contents');
  return { contents };
}

function withMime<T extends JsonObject>(o: T, mimeType: string | undefined): T {
  return mimeType ? { ...o, mimeType } : o;
}

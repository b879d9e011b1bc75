/**
 * Down-converts results that carry content for a legacy session, per its revision's schema:
 * 2025-03-26 has no `resource_link` content (sent as a text block naming the link), no `_meta` on
 * content blocks or resource contents, no `lastModified` annotation; structuredContent is an object
 * on 2025-06-18/2025-11-25 (a non-object one is wrapped when the tool's outputSchema was, see
 * legacy-shapes.ts) and absent on 2025-03-26.
 */
import type {
  CallToolResult,
  ContentBlock,
  GetPromptResult,
  ReadResourceResult,
  ResourceContents,
} from '../../protocol/types';
import { legacyFeatures, type LegacyVersion } from '../../protocol/versions';
import { ANNOTATIONS, keysOf, only, WRAPPED_OUTPUT_KEY } from './legacy-shapes';

function withoutMeta<T extends { _meta?: unknown }>(o: T): T {
  if (o._meta === undefined) return o;
  const { _meta: _dropped, ...rest } = o;
  return rest as T;
}

function contents(r: ResourceContents, v: LegacyVersion): ResourceContents {
  return legacyFeatures(v).contentMeta ? r : withoutMeta(r);
}

export function legacyContent(c: ContentBlock, v: LegacyVersion): ContentBlock {
  const f = legacyFeatures(v);
  if (c.type === 'resource_link' && !f.resourceLinks) {
    return { type: 'text', text: `${c.name}: ${c.uri}` };
  }
  let out: ContentBlock = f.contentMeta ? c : withoutMeta(c);
  if (out.annotations) {
    const annotations = only(out.annotations, keysOf(ANNOTATIONS, v));
    if (annotations !== out.annotations) out = { ...out, annotations };
  }
  if (out.type === 'resource') {
    const resource = contents(out.resource, v);
    if (resource !== out.resource) out = { ...out, resource };
  }
  return out;
}

function isObject(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Tool results; `wrapped`: the tool's outputSchema was sent wrapped, so its value is too. */
export function legacyToolResult(r: CallToolResult, v: LegacyVersion, wrapped: boolean): CallToolResult {
  const out: CallToolResult = { ...r, content: r.content.map((c) => legacyContent(c, v)) };
  const sc = r.structuredContent;
  if (sc === undefined) return out;
  if (!legacyFeatures(v).structuredContent) delete out.structuredContent;
  else if (wrapped) out.structuredContent = { [WRAPPED_OUTPUT_KEY]: sc };
  else if (!isObject(sc)) delete out.structuredContent;
  return out;
}

export function legacyPromptResult(r: GetPromptResult, v: LegacyVersion): GetPromptResult {
  return { ...r, messages: r.messages.map((m) => ({ ...m, content: legacyContent(m.content, v) })) };
}

export function legacyReadResult(r: ReadResourceResult, v: LegacyVersion): ReadResourceResult {
  return { ...r, contents: r.contents.map((c) => contents(c, v)) };
}

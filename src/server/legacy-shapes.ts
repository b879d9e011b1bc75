/** Down-converts 2026 shapes for older revisions (digest §7). */
import type { JsonObject } from '../protocol/jsonrpc';
import type { CallToolResult, ContentBlock } from '../protocol/types';
import { legacyFeatures, type LegacyVersion } from '../protocol/versions';

function strip(o: Readonly<JsonObject>, keys: string[]): JsonObject {
  const out: JsonObject = {};
  for (const k of Object.keys(o)) if (!keys.includes(k)) out[k] = o[k];
  return out;
}

/** Listing entries: drop fields the revision does not know. */
export function legacyDescriptor(d: Readonly<JsonObject>, v: LegacyVersion): Readonly<JsonObject> {
  const f = legacyFeatures(v);
  const drop: string[] = [];
  if (!f.titles) drop.push('title');
  if (!f.icons) drop.push('icons');
  if (!f.structuredContent) drop.push('outputSchema');
  const os = d.outputSchema as JsonObject | undefined;
  if (os && os.type !== 'object') drop.push('outputSchema');
  return drop.some((k) => k in d) ? strip(d, drop) : d;
}

function legacyContent(c: ContentBlock, v: LegacyVersion): ContentBlock {
  if (c.type === 'resource_link' && !legacyFeatures(v).resourceLinks) {
    return { type: 'text', text: `${c.name}: ${c.uri}` };
  }
  return c;
}

/** Tool results: structuredContent must be an object (06-18, 11-25) or absent (03-26). */
export function legacyToolResult(r: CallToolResult, v: LegacyVersion): CallToolResult {
  const f = legacyFeatures(v);
  const out: CallToolResult = { ...r, content: r.content.map((c) => legacyContent(c, v)) };
  const sc = r.structuredContent;
  if (sc !== undefined && (!f.structuredContent || typeof sc !== 'object' || sc === null || Array.isArray(sc))) {
    delete out.structuredContent;
  }
  return out;
}

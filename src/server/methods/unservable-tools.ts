/**
 * Lists that tell the truth: a tool whose declared asks this client cannot serve, with no fallback
 * (`none`), is hidden from it or annotated (`asks.unservableTools`), and the server logs which tool,
 * which client and which capability is missing, once per tool, client name and capability.
 */
import { Capabilities } from '../../context/asks';
import type { JsonObject } from '../../protocol/jsonrpc';
import type { ClientCapabilities } from '../../protocol/types';
import { ASKS_META_KEY } from '../../registry/declared-asks';
import type { ToolDefinition } from '../../registry/definitions';
import type { AskDeclaredKind } from '../../metadata/options';
import type { ServerCore } from '../core/server-core';
import type { RequestScope } from '../request/request-scope';

const NEEDS: Record<AskDeclaredKind, [string, (c: ClientCapabilities) => boolean]> = {
  confirm: ['elicitation', Capabilities.formElicitation],
  elicit: ['elicitation', Capabilities.formElicitation],
  elicitUrl: ['elicitation.url', Capabilities.urlElicitation],
  sample: ['sampling', Capabilities.sampling],
  roots: ['roots', Capabilities.roots],
};

/** Log lines already written (bounded: a flood of client names cannot grow it without limit). */
const logged = new Set<string>();
const MAX_LOGGED = 10_000;

/** The capabilities this client lacks for the tool's declared asks, when nothing falls back for them. */
export function missingFor(core: ServerCore, def: ToolDefinition, caps: ClientCapabilities): string[] {
  if (!def.asks || (def.asks.fallback ?? core.options.asks.fallback) !== 'none') return [];
  const missing = new Set<string>();
  for (const kind of def.asks.kinds) if (!NEEDS[kind][1](caps)) missing.add(NEEDS[kind][0]);
  return [...missing];
}

/** The tools as this client should see them; `changed` when any was hidden or annotated. */
export function truthfulTools<T extends { descriptor: Readonly<JsonObject> }>(
  core: ServerCore,
  items: readonly T[],
  scope: RequestScope,
): { items: T[]; changed: boolean } {
  const mode = core.options.asks.unservableTools;
  const out: T[] = [];
  let changed = false;
  for (const item of items) {
    const def = item as unknown as ToolDefinition;
    const missing = def.kind === 'tool' ? missingFor(core, def, scope.clientCapabilities) : [];
    if (missing.length === 0 || mode === 'show') {
      out.push(item);
      continue;
    }
    changed = true;
    note(core, def.name, scope.clientInfo?.name ?? 'unnamed client', missing, mode);
    if (mode === 'hide') continue;
    const meta = { ...(item.descriptor._meta as JsonObject | undefined) };
    meta[ASKS_META_KEY] = { ...(meta[ASKS_META_KEY] as JsonObject | undefined), unservable: missing };
    const description = `${(item.descriptor.description as string | undefined) ?? ''} (This client cannot use this tool: it needs the ${missing.join(', ')} capability.)`.trim();
    out.push({ ...item, descriptor: { ...item.descriptor, description, _meta: meta } });
  }
  return { items: out, changed };
}

function note(core: ServerCore, tool: string, client: string, missing: string[], mode: string): void {
  const key = `${tool}\u0000${client}\u0000${missing.join(',')}`;
  if (logged.has(key) || logged.size >= MAX_LOGGED) return;
  logged.add(key);
  core.logger.warn(`tool ${tool} ${mode === 'hide' ? 'hidden from' : 'annotated for'} ${client}: its declared asks need ${missing.join(', ')}, which the client did not declare, and it has no fallback`, { tool, client, missing });
}

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

/**
 * Per tool list (the registry replaces its arrays on every change): the positions of the tools that some
 * client may be unable to use, those declaring asks with no fallback of their own but `none`. Most lists
 * have none, and each page of them is then answered without a walk over every tool.
 */
const candidatesByList = new WeakMap<readonly object[], readonly number[]>();

function candidatesOf(items: readonly object[]): readonly number[] {
  let candidates = candidatesByList.get(items);
  if (!candidates) {
    const found: number[] = [];
    for (let i = 0; i < items.length; i++) {
      const def = items[i] as ToolDefinition;
      const fallback = def.asks?.fallback;
      const mayNeed = def.kind === 'tool' && def.asks?.kinds.length;
      if (mayNeed && (fallback === undefined || fallback === 'none')) found.push(i);
    }
    candidatesByList.set(items, (candidates = found));
  }
  return candidates;
}

interface Truthful<T> {
  readonly items: readonly T[];
  readonly changed: boolean;
  /** Each hidden or annotated tool and the capabilities it misses, for the log. */
  readonly unservable: readonly (readonly [string, string[]])[];
  /** Client names logged for already (each page would walk `unservable` again). */
  readonly logged: Set<string>;
}

/** Per tool list, the answers by mode, server fallback and the capabilities the asks need: each built once. */
const answersByList = new WeakMap<readonly object[], Map<string, Truthful<unknown>>>();
const MAX_ANSWERS = 64; // per list; a few in practice (one per capability set that clients send)

/** The tools as this client should see them; `changed` when any was hidden or annotated. */
export function truthfulTools<T extends { descriptor: Readonly<JsonObject> }>(
  core: ServerCore,
  items: readonly T[],
  scope: RequestScope,
): { items: readonly T[]; changed: boolean } {
  const mode = core.options.asks.unservableTools;
  const candidates = candidatesOf(items);
  if (candidates.length === 0 || mode === 'show') return { items, changed: false };
  const caps = scope.clientCapabilities;
  const key = `${mode} ${core.options.asks.fallback} ${Object.values(NEEDS).map(([, has]) => (has(caps) ? 1 : 0)).join('')}`;
  let answers = answersByList.get(items);
  if (!answers) answersByList.set(items, (answers = new Map()));
  let answer = answers.get(key) as Truthful<T> | undefined;
  if (!answer) {
    answer = truthfulAnswer(core, items, candidates, caps, mode);
    if (answers.size >= MAX_ANSWERS) answers.clear();
    answers.set(key, answer);
  }
  const client = scope.clientInfo?.name ?? 'unnamed client';
  if (answer.unservable.length && !answer.logged.has(client)) {
    if (answer.logged.size < MAX_LOGGED) answer.logged.add(client);
    for (const [tool, missing] of answer.unservable) note(core, tool, client, missing, mode);
  }
  return answer;
}

function truthfulAnswer<T extends { descriptor: Readonly<JsonObject> }>(
  core: ServerCore,
  items: readonly T[],
  candidates: readonly number[],
  caps: ClientCapabilities,
  mode: string,
): Truthful<T> {
  const unservable: [string, string[]][] = [];
  const replaced = new Map<number, T | undefined>(); // position → annotated tool, or undefined when hidden
  for (const i of candidates) {
    const item = items[i]!;
    const def = item as unknown as ToolDefinition;
    const missing = missingFor(core, def, caps);
    if (missing.length === 0) continue;
    unservable.push([def.name, missing]);
    if (mode === 'hide') {
      replaced.set(i, undefined);
      continue;
    }
    const meta = { ...(item.descriptor._meta as JsonObject | undefined) };
    meta[ASKS_META_KEY] = { ...(meta[ASKS_META_KEY] as JsonObject | undefined), unservable: missing };
    const description = `${(item.descriptor.description as string | undefined) ?? ''} (This client cannot use this tool: it needs the ${missing.join(', ')} capability.)`.trim();
    replaced.set(i, { ...item, descriptor: { ...item.descriptor, description, _meta: meta } });
  }
  const logged = new Set<string>();
  if (replaced.size === 0) return { items, changed: false, unservable, logged };
  const out: T[] = [];
  for (let i = 0; i < items.length; i++) {
    if (!replaced.has(i)) out.push(items[i]!);
    else if (replaced.get(i) !== undefined) out.push(replaced.get(i)!);
  }
  return { items: out, changed: true, unservable, logged };
}

function note(core: ServerCore, tool: string, client: string, missing: string[], mode: string): void {
  const key = `${tool}\u0000${client}\u0000${missing.join(',')}`;
  if (logged.has(key) || logged.size >= MAX_LOGGED) return;
  logged.add(key);
  core.logger.warn(`tool ${tool} ${mode === 'hide' ? 'hidden from' : 'annotated for'} ${client}: its declared asks need ${missing.join(', ')}, which the client did not declare, and it has no fallback`, { tool, client, missing });
}

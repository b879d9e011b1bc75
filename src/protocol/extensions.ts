/**
 * The extensions mechanism (2026-07-28 `capabilities.extensions`): each side declares the
 * extensions it supports as `{ [id]: settings }`, the client per request in
 * `_meta.clientCapabilities`, the server in `server/discover`. An extension the other side does
 * not know is ignored; a malformed entry counts as not declared.
 */
import type { JsonObject } from './jsonrpc';
import type { ClientCapabilities } from './types';
import type { Era } from './versions';

/** SEP-2663: `tools/call` may answer with a task handle (`resultType: "task"`), polled with `tasks/*`. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

export interface KnownExtension {
  readonly id: string;
  /** The eras whose wire the extension is defined on; it is declared and honoured there only. */
  readonly eras: readonly Era[];
  /** The settings object the server declares (empty: supported, no settings). */
  readonly settings: JsonObject;
}

/** The extensions this framework implements. Tasks: 2026-07-28 only (SEP-2663 §Backward Compatibility). */
export const KNOWN_EXTENSIONS: readonly KnownExtension[] = Object.freeze([
  Object.freeze({ id: TASKS_EXTENSION, eras: Object.freeze(['modern'] as Era[]), settings: Object.freeze({}) }),
]);

function isRecord(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Whether the client declared extension `id` (its settings must be an object). */
export function declaresExtension(caps: ClientCapabilities | undefined, id: string): boolean {
  const ext = caps?.extensions;
  return isRecord(ext) && Object.prototype.hasOwnProperty.call(ext, id) && isRecord(ext[id]);
}

/** The `extensions` map a server declares on `era` (undefined when none covers it). */
export function serverExtensions(era: Era): JsonObject | undefined {
  const covered = KNOWN_EXTENSIONS.filter((e) => e.eras.includes(era));
  if (covered.length === 0) return undefined;
  return Object.fromEntries(covered.map((e) => [e.id, { ...e.settings }]));
}

/**
 * What a tool declares it may ask (`asks: { kinds, fallback }`), checked at start-up, shown to
 * clients in the tool's `_meta`, and the input-schema arguments its fallback adds.
 */
import { FrameworkError } from '../errors/framework-error';
import type { JsonObject } from '../protocol/jsonrpc';
import type { AskDeclaration, AskDeclaredKind, DeclaredFallback } from '../metadata/options';

export const ASK_KINDS: readonly AskDeclaredKind[] = ['confirm', 'elicit', 'elicitUrl', 'sample', 'roots'];
const FALLBACKS: readonly DeclaredFallback[] = ['none', 'deny', 'approvalPage', 'argument'];

/** The `_meta` key under which a tool shows what it may ask. */
export const ASKS_META_KEY = 'io.onemodelcontext/asks';
/** The framework's arguments (see `context/ask-fallback.ts`): stripped before the DTO sees the arguments. */
export const APPROVAL_ARGUMENT = 'approvalId';
export const CONFIRM_ARGUMENT = 'userConfirmed';

export interface DeclaredAsks {
  readonly kinds: readonly AskDeclaredKind[];
  /** Undefined: the app-wide default. */
  readonly fallback?: DeclaredFallback;
}

export function declaredAsks(owner: string, kind: 'tool' | 'other', asks: unknown): DeclaredAsks | undefined {
  if (asks === undefined) return undefined;
  const fail = (why: string) => new FrameworkError('OMC_INVALID_DEFINITION', `${owner}: asks: ${why}`);
  if (typeof asks !== 'object' || asks === null || Array.isArray(asks)) {
    throw fail("must be an object, e.g. asks: { kinds: ['confirm'], fallback: 'deny' }.");
  }
  const { kinds, fallback } = asks as AskDeclaration;
  if (!Array.isArray(kinds) || kinds.length === 0 || kinds.some((k) => !ASK_KINDS.includes(k))) {
    throw fail(`kinds must list what the handler asks, from ${ASK_KINDS.join(', ')} (got ${JSON.stringify(kinds)}).`);
  }
  if (fallback !== undefined && !FALLBACKS.includes(fallback)) {
    throw fail(`fallback must be one of ${FALLBACKS.join(', ')} (got ${JSON.stringify(fallback)}).`);
  }
  if ((fallback === 'approvalPage' || fallback === 'argument') && kind !== 'tool') {
    throw fail(`fallback '${fallback}' ends or extends a tool call; prompts and resources take 'deny' or 'none'.`);
  }
  if (fallback === 'argument' && kinds.some((k) => k !== 'confirm' && k !== 'sample' && k !== 'roots')) {
    throw fail("fallback 'argument' answers only ctx.confirm (a yes in chat); a form needs 'approvalPage' or 'deny'.");
  }
  return Object.freeze({ kinds: Object.freeze([...new Set(kinds)]), fallback });
}

/** The tool's input schema with the argument its fallback adds (a copy; the DTO's own schema is untouched). */
export function withFallbackArgument(inputSchema: JsonObject, asks: DeclaredAsks | undefined): JsonObject {
  const name = fallbackArgument(asks);
  if (!name) return inputSchema;
  const properties = { ...((inputSchema.properties as JsonObject | undefined) ?? {}) };
  assertNoFallbackClash({ has: (key) => key in properties }, asks);
  properties[name] =
    name === CONFIRM_ARGUMENT
      ? {
          type: 'boolean',
          description:
            'Set to true only after you asked the user in the chat and they explicitly agreed. Never set it on your own.',
        }
      : {
          type: 'string',
          description:
            'Only when an earlier call of this tool answered with an approval link: the approval id it gave. Otherwise leave it out.',
        };
  return { ...inputSchema, properties };
}

/** The argument the fallback adds must not be one of the tool's own (checked on names, before a schema is built). */
export function assertNoFallbackClash(names: { has(name: string): boolean }, asks: DeclaredAsks | undefined): void {
  const name = fallbackArgument(asks);
  if (name && names.has(name)) {
    throw new FrameworkError(
      'OMC_INVALID_DEFINITION',
      `the tool's arguments already have a property "${name}", which its ask fallback adds; rename it.`,
    );
  }
}

/** The arguments without the framework's own (what the DTO validates and the handler receives). */
export function withoutFallbackArgument(args: unknown, asks: DeclaredAsks | undefined): unknown {
  const name = fallbackArgument(asks);
  if (!name || typeof args !== 'object' || args === null || !(name in args)) return args;
  const { [name]: _dropped, ...rest } = args as Record<string, unknown>;
  return rest;
}

/** The argument a tool's fallback adds, if any. */
function fallbackArgument(asks: DeclaredAsks | undefined): string | undefined {
  if (asks?.fallback === 'argument') return CONFIRM_ARGUMENT;
  return asks?.fallback === 'approvalPage' ? APPROVAL_ARGUMENT : undefined;
}

/** What a tool's `_meta` shows of its asks, so a host can decide up front. */
export function asksMeta(asks: DeclaredAsks | undefined): JsonObject | undefined {
  if (!asks) return undefined;
  const meta: JsonObject = { kinds: [...asks.kinds] };
  if (asks.fallback) meta.fallback = asks.fallback;
  return meta;
}

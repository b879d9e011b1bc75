/**
 * Lists per caller: an item whose guards refuse the caller (or throw) is left out. A list with no
 * guarded item is the registry's own array, untouched; one with any is marked caller-dependent, so
 * its 2026 cache hint is never `public`.
 */
import type { AskPort } from '../../context/ask-port';
import type { Context } from '../../context/context';
import { StateBag } from '../../context/state-bag';
import { FrameworkError } from '../../errors/framework-error';
import type { JsonRpcRequest } from '../../protocol/jsonrpc';
import type { HandlerSource } from '../../registry/definitions';
import type { HandlerKind } from '../pipeline/types';
import type { RequestIO } from '../request/request-io';
import type { RequestScope } from '../request/request-scope';
import type { ServerCore } from '../core/server-core';
import { makeContext } from './call-context';

interface Item {
  readonly source: HandlerSource;
  readonly owner: string;
}

/** Results whose content depends on who asked (read by the cache hints). */
export const CALLER_DEPENDENT = new WeakSet<object>();

/** Per registry array: whether any item has a guard (the arrays are replaced on every change). */
const guardedLists = new WeakMap<readonly object[], boolean>();

const noAsks: AskPort = {
  allowed: false,
  ask: () => Promise.reject(new FrameworkError('OMC_ASK_UNAVAILABLE', 'A list cannot ask the client.')),
  once: async (_key, fn) => fn(),
  pause: () => Promise.reject(new FrameworkError('OMC_ASK_UNAVAILABLE', 'A list cannot pause.')),
};

/** The Context a guard (or a request-scoped guard class) gets outside a call: it cannot ask. */
export function askFreeContext(req: JsonRpcRequest, scope: RequestScope, io: RequestIO): () => Context {
  let context: Context | undefined;
  return () => (context ??= makeContext(req, scope, io, noAsks, new StateBag()));
}

function anyGuarded(core: ServerCore, items: readonly Item[]): boolean {
  let guarded = guardedLists.get(items);
  if (guarded === undefined) {
    guarded = items.some((d) => (core.pipelines.of(d)?.guards.length ?? 0) > 0);
    guardedLists.set(items, guarded);
  }
  return guarded;
}

export async function visibleItems<T extends Item>(
  core: ServerCore,
  items: readonly T[],
  kind: HandlerKind,
  targetOf: (item: T) => string,
  req: JsonRpcRequest,
  scope: RequestScope,
  io: RequestIO,
): Promise<{ items: readonly T[]; callerDependent: boolean }> {
  if (!anyGuarded(core, items)) return { items, callerDependent: false };
  const contextOf = askFreeContext(req, scope, io);
  const shown: T[] = [];
  for (const item of items) {
    const pipe = core.pipelines.of(item);
    if (!pipe || pipe.guards.length === 0) {
      shown.push(item);
      continue;
    }
    try {
      const visible = await pipe.visible(
        {
          phase: 'list',
          method: req.method,
          kind,
          target: targetOf(item),
          arguments: undefined,
          principal: io.principal,
          era: scope.era,
          protocolVersion: scope.protocolVersion,
          flow: undefined,
          get context() {
            return contextOf();
          },
          handlerClass: item.source.cls,
          handlerMethod: item.source.method,
        },
        contextOf,
      );
      if (visible) shown.push(item);
    } catch (e) {
      core.logger.warn(`a guard of ${item.owner} threw while listing: hidden from this caller`, {
        error: e instanceof Error ? e.message : String(e),
      });
    }
  }
  return { items: shown, callerDependent: true };
}

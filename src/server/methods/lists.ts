/** tools/list, prompts/list, resources/list, resources/templates/list (both eras), per caller when guarded. */
import type { JsonObject, JsonRpcRequest } from '../../protocol/jsonrpc';
import type { LegacyVersion } from '../../protocol/versions';
import type { HandlerSource } from '../../registry/definitions';
import { legacyDescriptor, type ListingKind } from '../legacy/legacy-shapes';
import { page } from '../replies/pagination';
import type { HandlerKind } from '../pipeline/types';
import type { RequestIO } from '../request/request-io';
import type { RequestScope } from '../request/request-scope';
import type { ServerCore } from '../core/server-core';
import { CALLER_DEPENDENT, visibleItems } from './list-visibility';
import { truthfulTools } from './unservable-tools';

type Listing = { descriptor: Readonly<JsonObject>; source: HandlerSource; owner: string };

async function list<T extends Listing>(
  core: ServerCore,
  key: string,
  kind: ListingKind,
  all: readonly T[],
  targetOf: (item: T) => string,
  req: JsonRpcRequest,
  scope: RequestScope,
  io: RequestIO,
): Promise<JsonObject> {
  const visible = await visibleItems(core, all, kind as HandlerKind, targetOf, req, scope, io);
  let { items, callerDependent } = visible;
  if (kind === 'tool') {
    const truthful = truthfulTools(core, items, scope);
    items = truthful.items;
    callerDependent ||= truthful.changed;
  }
  // A cursor is an offset into this caller's list: stable while the caller's guard decisions are.
  const { items: slice, nextCursor } = page(items, req.params?.cursor, core.options.pageSize);
  const entries =
    scope.era === 'legacy'
      ? slice.map((d) => legacyDescriptor(kind, d.descriptor, scope.protocolVersion as LegacyVersion))
      : slice.map((d) => d.descriptor);
  const result: JsonObject = { [key]: entries };
  if (nextCursor) result.nextCursor = nextCursor;
  if (callerDependent) CALLER_DEPENDENT.add(result);
  return result;
}

export const listTools = (core: ServerCore, req: JsonRpcRequest, scope: RequestScope, io: RequestIO) =>
  list(core, 'tools', 'tool', core.registry.listTools(), (d) => d.name, req, scope, io);
export const listPrompts = (core: ServerCore, req: JsonRpcRequest, scope: RequestScope, io: RequestIO) =>
  list(core, 'prompts', 'prompt', core.registry.listPrompts(), (d) => d.name, req, scope, io);
export const listResources = (core: ServerCore, req: JsonRpcRequest, scope: RequestScope, io: RequestIO) =>
  list(core, 'resources', 'resource', core.registry.listResources(), (d) => d.uri, req, scope, io);
export const listResourceTemplates = (core: ServerCore, req: JsonRpcRequest, scope: RequestScope, io: RequestIO) =>
  list(
    core,
    'resourceTemplates',
    'resourceTemplate',
    core.registry.listResourceTemplates(),
    (d) => d.uriTemplate,
    req,
    scope,
    io,
  );

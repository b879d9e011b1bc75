/** tools/list, prompts/list, resources/list, resources/templates/list (both eras). */
import type { JsonObject } from '../../protocol/jsonrpc';
import type { LegacyVersion } from '../../protocol/versions';
import { legacyDescriptor, type ListingKind } from '../legacy-shapes';
import { page } from '../pagination';
import type { RequestScope } from '../request-scope';
import type { ServerCore } from '../server-core';

type Listing = { descriptor: Readonly<JsonObject> };

function list(
  core: ServerCore,
  key: string,
  kind: ListingKind,
  items: readonly Listing[],
  params: JsonObject | undefined,
  scope: RequestScope,
): JsonObject {
  const { items: slice, nextCursor } = page(items, params?.cursor, core.options.pageSize);
  const entries =
    scope.era === 'legacy'
      ? slice.map((d) => legacyDescriptor(kind, d.descriptor, scope.protocolVersion as LegacyVersion))
      : slice.map((d) => d.descriptor);
  const result: JsonObject = { [key]: entries };
  if (nextCursor) result.nextCursor = nextCursor;
  return result;
}

export const listTools = (core: ServerCore, params: JsonObject | undefined, scope: RequestScope) =>
  list(core, 'tools', 'tool', core.registry.listTools(), params, scope);
export const listPrompts = (core: ServerCore, params: JsonObject | undefined, scope: RequestScope) =>
  list(core, 'prompts', 'prompt', core.registry.listPrompts(), params, scope);
export const listResources = (core: ServerCore, params: JsonObject | undefined, scope: RequestScope) =>
  list(core, 'resources', 'resource', core.registry.listResources(), params, scope);
export const listResourceTemplates = (core: ServerCore, params: JsonObject | undefined, scope: RequestScope) =>
  list(core, 'resourceTemplates', 'resourceTemplate', core.registry.listResourceTemplates(), params, scope);

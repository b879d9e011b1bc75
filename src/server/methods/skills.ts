/**
 * The Skills extension's methods (SEP-2640), both eras: `skills/list`, `skills/get` and
 * `resources/directory/read`. Skills are resources: the guards of the class that publishes them
 * decide who sees them here, as they do for `resources/list` and `resources/read`.
 */
import { ProtocolError } from '../../errors/protocol-error';
import type { JsonObject, JsonRpcRequest } from '../../protocol/jsonrpc';
import { SKILL_FILE } from '../../protocol/skills';
import type { DirectoryChild } from '../../skills/skill-set';
import { page } from '../replies/pagination';
import type { RequestIO } from '../request/request-io';
import type { RequestScope } from '../request/request-scope';
import { resourceUri } from '../request/resource-uri';
import type { ServerCore } from '../core/server-core';
import { knownTo } from './guarded';
import { CALLER_DEPENDENT, visibleItems } from './list-visibility';

export async function listSkills(
  core: ServerCore,
  req: JsonRpcRequest,
  scope: RequestScope,
  io: RequestIO,
): Promise<JsonObject> {
  const all = core.registry.listSkills();
  const { items, callerDependent } = await visibleItems(core, all, 'resource', (s) => s.uri, req, scope, io);
  // A page holds whole entries: a skill's resources are never split across pages.
  const { items: slice, nextCursor } = page(items, req.params?.cursor, core.options.pageSize);
  const result: JsonObject = { skills: slice.map((s) => s.entry as unknown as JsonObject) };
  if (nextCursor) result.nextCursor = nextCursor;
  if (callerDependent) CALLER_DEPENDENT.add(result);
  return result;
}

export async function getSkill(
  core: ServerCore,
  req: JsonRpcRequest,
  scope: RequestScope,
  io: RequestIO,
): Promise<JsonObject> {
  const uri = checkedUri(req, core);
  const def = core.registry.skill(uri);
  const hidden = () => ProtocolError.invalidParams(`No skill is served at ${uri}`, { uri });
  if (!def) {
    if (!uri.endsWith(`/${SKILL_FILE}`)) {
      throw ProtocolError.invalidParams(`skills/get: ${uri} is not the URI of a SKILL.md`, { uri });
    }
    throw hidden();
  }
  const g = { def, kind: 'resource' as const, method: req.method, target: uri, pipe: core.pipelines.of(def) };
  if (!(await knownTo(g, req, scope, io))) throw hidden();
  const result: JsonObject = { skill: def.entry as unknown as JsonObject };
  if (g.pipe?.guards.length) CALLER_DEPENDENT.add(result);
  return result;
}

export async function readDirectory(
  core: ServerCore,
  req: JsonRpcRequest,
  scope: RequestScope,
  io: RequestIO,
): Promise<JsonObject> {
  const uri = checkedUri(req, core);
  const defs = core.registry.directory(uri);
  if (!defs && core.registry.resource(uri)) {
    throw ProtocolError.invalidParams(`${uri} is not a directory resource`, { uri });
  }
  // A level several folders share lists what each folder the caller may see puts there.
  const children: DirectoryChild[] = [];
  let guarded = false;
  for (const def of defs ?? []) {
    const g = { def, kind: 'resource' as const, method: req.method, target: uri, pipe: core.pipelines.of(def) };
    guarded ||= (g.pipe?.guards.length ?? 0) > 0;
    if (await knownTo(g, req, scope, io)) children.push(...def.children);
  }
  if (children.length === 0 && !defs?.some((d) => d.children.length === 0)) {
    throw ProtocolError.invalidParams(`No directory is served at ${uri}`, { uri });
  }
  const { items, nextCursor } = page(children, req.params?.cursor, core.options.pageSize);
  const result: JsonObject = { resources: items as unknown as JsonObject[] };
  if (nextCursor) result.nextCursor = nextCursor;
  if (guarded) CALLER_DEPENDENT.add(result);
  return result;
}

/** The request's URI, length-capped; a `.` or `..` segment is refused by name, never resolved. */
function checkedUri(req: JsonRpcRequest, core: ServerCore): string {
  const uri = resourceUri(req.params, req.method, core.options.maxUriLength);
  const at = uri.indexOf('://');
  const path = at < 0 ? uri : uri.slice(at + 3);
  if (path.split('/').some(isDotSegment)) {
    throw ProtocolError.invalidParams(`${req.method}: ${uri} has a . or .. path segment; skill paths never do`, { uri });
  }
  return uri;
}

/** `.` or `..`, also percent-encoded (`%2e%2E`). */
function isDotSegment(segment: string): boolean {
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // Malformed escapes are not dots; the lookup will not find them either.
  }
  return decoded === '.' || decoded === '..';
}

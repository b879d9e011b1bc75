/**
 * `@RequireScopes('notes:write', …)` on a class or a handler method: built on the guards of issue 16.
 * A caller whose token lacks a scope does not see the item in lists, and a call gets
 * `MissingScopesError` (HTTP 403 with the scopes to ask for). Scopes of the class and of the
 * method add up; the refusal names all of them, so one step-up is enough.
 */
import { FrameworkError } from '../errors/framework-error';
import { MissingScopesError } from '../errors/insufficient-scope';
import { UseGuards } from '../decorators/use-pipeline';
import { addRequiredScopes, requiredScopesOf } from '../metadata/scopes';
import type { CanActivate, ExecutionContext } from '../server/pipeline/types';
import { grantedScopes } from './oauth-principal';

/** RFC 6749 §3.3 scope-token: printable ASCII without space, `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/**
 * The guard behind `@RequireScopes`. Without `scopes` it reads the handler's `@RequireScopes`;
 * with them it requires those (for `McpApplication.create({ guards })` or `@UseGuards`).
 */
export class ScopesGuard implements CanActivate {
  private readonly scopes?: readonly string[];

  constructor(scopes?: readonly string[]) {
    if (scopes) this.scopes = Object.freeze(checkedScopes(scopes, 'ScopesGuard'));
  }

  canActivate(ctx: ExecutionContext): boolean {
    const required =
      this.scopes ?? (ctx.handlerClass === undefined ? [] : requiredScopesOf(ctx.handlerClass, ctx.handlerMethod));
    if (required.length === 0) return true;
    const granted = grantedScopes(ctx.principal);
    if (required.every((s) => granted.includes(s))) return true;
    if (ctx.phase === 'list') return false;
    throw new MissingScopesError(required);
  }
}

const byMetadata = new ScopesGuard();

export function RequireScopes(...scopes: string[]): ClassDecorator & MethodDecorator {
  const checked = checkedScopes(scopes, '@RequireScopes');
  const guard = UseGuards(byMetadata);
  return ((target: object, propertyKey?: string | symbol, descriptor?: PropertyDescriptor) => {
    const cls = propertyKey === undefined ? (target as Function) : (target as { constructor: Function }).constructor;
    const method = typeof propertyKey === 'string' ? propertyKey : undefined;
    if (propertyKey !== undefined && method === undefined) {
      throw new FrameworkError('OMC_INVALID_DEFINITION', `@RequireScopes on ${cls.name}: a symbol-named method`);
    }
    addRequiredScopes(cls, method, checked);
    (guard as (t: object, k?: string | symbol, d?: PropertyDescriptor) => void)(target, propertyKey, descriptor);
  }) as ClassDecorator & MethodDecorator;
}

function checkedScopes(scopes: readonly string[], where: string): string[] {
  if (scopes.length === 0) throw new FrameworkError('OMC_INVALID_DEFINITION', `${where}: give at least one scope`);
  const bad = scopes.filter((s) => typeof s !== 'string' || !SCOPE_TOKEN.test(s));
  if (bad.length) {
    throw new FrameworkError(
      'OMC_INVALID_DEFINITION',
      `${where}: ${bad.map((s) => JSON.stringify(s)).join(', ')} is not a scope (printable ASCII, no space, " or \\)`,
    );
  }
  return [...scopes];
}

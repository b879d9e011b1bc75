/** `@RequireScopes` and `ScopesGuard` without a server: what is required, who passes, what a refusal says. */
import { MissingScopesError, RequireScopes, ScopesGuard, Tool } from '../../../src';
import { requiredScopesOf } from '../../../src/metadata/scopes';
import type { ExecutionContext } from '../../../src/server/pipeline/types';

@RequireScopes('a')
class Base {
  @RequireScopes('b', 'c')
  @Tool()
  one() {}
  @Tool()
  two() {}
}
class Sub extends Base {
  @RequireScopes('d')
  @Tool()
  override two() {}
}

const at = (cls: Function, method: string, phase: 'list' | 'call', scopes: string[]) =>
  ({ phase, handlerClass: cls, handlerMethod: method, principal: { id: 'u', scopes } }) as unknown as ExecutionContext;

test('class and method scopes add up; a subclass inherits the class scopes', () => {
  expect(requiredScopesOf(Base, 'one')).toEqual(['a', 'b', 'c']);
  expect(requiredScopesOf(Base, 'two')).toEqual(['a']);
  expect(requiredScopesOf(Sub, 'two')).toEqual(['a', 'd']);
});

test('the guard: all scopes pass; fewer hide in lists and throw in calls with every scope needed', () => {
  const g = new ScopesGuard();
  expect(g.canActivate(at(Base, 'one', 'call', ['c', 'b', 'a', 'z']))).toBe(true);
  expect(g.canActivate(at(Base, 'one', 'list', ['a']))).toBe(false);
  let thrown: unknown;
  try {
    g.canActivate(at(Base, 'one', 'call', ['a']));
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBeInstanceOf(MissingScopesError);
  expect((thrown as MissingScopesError).toJSON()).toEqual({
    code: -32003,
    message: 'Insufficient scope: this needs a b c',
    data: { reason: 'insufficient_scope', scopes: ['a', 'b', 'c'] },
  });
});

test('an anonymous caller or one without scopes has none', () => {
  const g = new ScopesGuard(['x']);
  expect(g.canActivate({ ...at(Base, 'two', 'list', []), principal: undefined } as ExecutionContext)).toBe(false);
  expect(g.canActivate({ ...at(Base, 'two', 'list', []), principal: { id: 'u' } } as ExecutionContext)).toBe(false);
});

test.each([[[]], [['has space']], [['quo"te']], [['']]])('bad scopes %j are refused when decorating', (scopes) => {
  expect(() => RequireScopes(...(scopes as string[]))).toThrow(/OMC_INVALID_DEFINITION|scope/);
});

/**
 * Issue 16: decorators only record; McpApplication.create resolves and checks every guard,
 * interceptor and filter, failing start-up with a message that names the handler and the culprit.
 * Hostile values on the new entry points are refused there, never at call time.
 */
import { inject, injectable } from 'tsyringe';
import {
  McpApplication,
  Tool,
  UseFilters,
  UseGuards,
  UseInterceptors,
  type CanActivate,
  type ExecutionContext,
} from '../../../../src';

const make = (providers: Function[], extra: Record<string, unknown> = {}) => () =>
  McpApplication.create({ name: 'boot', version: '1.0.0', providers, ...extra });

class NotAGuard {
  check() {
    return true;
  }
}

class Allow implements CanActivate {
  canActivate(_ctx: ExecutionContext) {
    return true;
  }
}

class Dep {}

class Uninjectable implements CanActivate {
  constructor(readonly dep: Dep) {}
  canActivate() {
    return true;
  }
}

@injectable()
class NeedsToken implements CanActivate {
  constructor(@inject('nowhere') readonly dep: unknown) {}
  canActivate() {
    return true;
  }
}

function toolWith(decorator: MethodDecorator & ClassDecorator): Function {
  class Tools {
    @Tool({ description: 't' })
    @decorator
    t() {
      return 'ok';
    }
  }
  return Tools;
}

test('a class without the interface method fails start-up naming the handler and the class', () => {
  expect(make([toolWith(UseGuards(NotAGuard as never))])).toThrow(
    /Tools\.t: @UseGuards lists NotAGuard, which is not a guard: it has no canActivate\(\) method/,
  );
  expect(make([toolWith(UseInterceptors(Allow as never))])).toThrow(/Allow, which is not an interceptor: it has no intercept\(\) method/);
  expect(make([toolWith(UseFilters(Allow as never))])).toThrow(/Allow, which is not an exception filter: it has no catch\(\) method/);
});

test('a class that cannot be injected fails start-up', () => {
  expect(make([toolWith(UseGuards(Uninjectable))])).toThrow(expect.objectContaining({ code: 'OMC_NOT_INJECTABLE' }));
  expect(make([toolWith(UseGuards(NeedsToken))])).toThrow(
    expect.objectContaining({ code: 'OMC_UNRESOLVABLE_DEPENDENCY' }),
  );
});

test('hostile refs on the decorators are refused at start-up', () => {
  for (const bad of [null, undefined, 42, 'Allow', {}, { canActivate: 'yes' }, Symbol('x')]) {
    const start = make([toolWith(UseGuards(bad as never))]);
    expect(start).toThrow(expect.objectContaining({ code: 'OMC_INVALID_DEFINITION' }));
  }
  const weird = { intercept: () => undefined, runs: 'sometimes' };
  expect(make([toolWith(UseInterceptors(weird))])).toThrow(/runs must be 'everyRound', 'firstRound' or 'completion'/);
});

test('hostile app-wide lists are refused by the options check', () => {
  for (const guards of [{}, 'x', [null], [42], [{ canActivate: 1 }]]) {
    expect(make([], { guards })).toThrow(expect.objectContaining({ code: 'OMC_INVALID_OPTIONS' }));
  }
  expect(make([], { interceptors: [{}] })).toThrow(/intercept\(\) method/);
  expect(make([], { filters: [{ intercept: () => 1 }] })).toThrow(/catch\(\) method/);
  // A class in the app-wide list is checked like one on a handler.
  expect(make([toolWith(UseGuards(Allow))], { guards: [NotAGuard] })).toThrow(/NotAGuard, which is not a guard/);
});

test('a valid set starts, and the decorators themselves never throw', () => {
  expect(() => UseGuards(42 as never)).not.toThrow();
  expect(make([toolWith(UseGuards(Allow, new Allow()))], { guards: [Allow] })).not.toThrow();
});

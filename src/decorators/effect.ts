/**
 * `@Effect()` marks a service method as a side effect (a charge, an email, a write). On
 * 2026-07-28 a handler runs again from the top on every round, so such a call belongs after the
 * last ask or inside `ctx.once`; the replay linter (`replayLint`, on in the test kit) reports a
 * call made outside `ctx.once` in a round that still asks. The wrapper only reports the call.
 */
import { FrameworkError } from '../errors/framework-error';
import { effectCalls } from '../metadata/effects';

export function Effect(): MethodDecorator {
  return (target, key, descriptor) => {
    const original = descriptor.value as unknown;
    const name = `${(target as { constructor: { name: string } }).constructor.name}.${String(key)}`;
    if (typeof original !== 'function')
      throw new FrameworkError('OMC_INVALID_DEFINITION', `@Effect() on ${name}: only methods can be effects.`);
    const reported = function (this: unknown, ...args: unknown[]): unknown {
      effectCalls.observer?.(name);
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    };
    Object.defineProperty(reported, 'name', { value: original.name });
    (descriptor as PropertyDescriptor).value = reported;
    return descriptor;
  };
}

/**
 * Jest helpers that run the same test under 2026-07-28 (replay) and 2025-11-25 (real await).
 * They use the test runner's globals, so this file works under jest (and vitest with globals).
 */
import type { TestEra } from './test-client';

export const BOTH_ERAS: readonly TestEra[] = Object.freeze(['2026-07-28', '2025-11-25']);

type TestFn = (name: string, fn: () => Promise<void>, timeout?: number) => void;
type DescribeFn = (name: string, fn: () => void) => void;

function globalFn<T>(name: 'test' | 'describe'): T {
  const fn = (globalThis as Record<string, unknown>)[name];
  if (typeof fn !== 'function')
    throw new Error(`forEachEra/bothEras need the test runner's global \`${name}\` (jest, or vitest with globals).`);
  return fn as T;
}

/** One `test` per era, named `<name> [<era>]`. */
export function forEachEra(
  name: string,
  fn: (era: TestEra) => Promise<void>,
  eras: readonly TestEra[] = BOTH_ERAS,
  timeout?: number,
): void {
  const test = globalFn<TestFn>('test');
  for (const era of eras) test(`${name} [${era}]`, () => fn(era), timeout);
}

/** One `describe` block per era, for suites with their own hooks. */
export function bothEras(name: string, fn: (era: TestEra) => void, eras: readonly TestEra[] = BOTH_ERAS): void {
  const describe = globalFn<DescribeFn>('describe');
  for (const era of eras) describe(`${name} [${era}]`, () => fn(era));
}

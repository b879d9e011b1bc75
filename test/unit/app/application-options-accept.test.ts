/**
 * `acceptApplicationOptions`, the hand-written check that lets a start-up skip class-validator for
 * McpApplication.create's options (issue 38), says yes only where the decorators do, and gives the
 * same frozen options.
 */
import 'reflect-metadata';
import { container } from 'tsyringe';
import {
  ACCEPTED_KEYS,
  acceptApplicationOptions,
  ApplicationOptions,
  IDENTITY_KEYS,
  ServerIdentity,
} from '../../../src/app/application-options';
import { knownOptionKeys, validateOptions } from '../../../src/config/validate-options';
import { ContextServerModule } from '../../../src';

const full = (input: unknown) => validateOptions(ApplicationOptions, input, { label: 'ApplicationOptions' });
const fast = (input: unknown) =>
  validateOptions(ApplicationOptions, input, { label: 'ApplicationOptions', accept: acceptApplicationOptions });
const outcome = (run: () => unknown) => {
  try {
    const value = run() as object;
    const proto = Object.getPrototypeOf(value);
    return { ok: true, proto, entries: Object.entries(value), frozen: Object.isFrozen(value) };
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
};

class Tools {}
const base = { name: 'n', version: '1.0.0', providers: [Tools] };
const guard = { canActivate: () => true };
const values: Record<string, unknown[]> = {
  name: ['x', '', 'é'.repeat(256), 'a'.repeat(256), 'a'.repeat(257), '😀'.repeat(200), 5, null, undefined, {}],
  version: ['1', '', 1, null, undefined],
  title: ['t', '', 3, null, undefined],
  description: ['d', [], null, undefined],
  websiteUrl: ['https://x', 'not a url', 1, null, undefined],
  icons: [[], [{ src: 'x' }], {}, 'x', null, undefined],
  providers: [
    [],
    [Tools],
    [{ provide: 'a', useValue: 1 }],
    [{ provide: 'a' }],
    [{ provide: 'a', useClass: 1 }],
    [1],
    'x',
    null,
    undefined,
  ],
  modules: [[], [ContextServerModule.configure({})], [{ register: 1 }], [null], ['x'], {}, null, undefined],
  guards: [[], [Tools], [guard], [{}], [null], 'x', null, undefined],
  interceptors: [[], [{ intercept: () => undefined }], [guard], null, undefined],
  filters: [[], [{ catch: () => undefined }], [1], null, undefined],
  container: [container, {}, { resolve: () => 1 }, () => 1, null, undefined],
};

test('the hand check knows exactly the options the classes define', () => {
  expect([...ACCEPTED_KEYS].sort()).toEqual([...knownOptionKeys(ApplicationOptions)].sort());
  expect([...IDENTITY_KEYS].sort()).toEqual([...knownOptionKeys(ServerIdentity)].sort());
});

test('every value of every option: accepted only where the decorators pass it, with the same result', () => {
  let accepted = 0;
  for (const [key, list] of Object.entries(values)) {
    for (const value of list) {
      const input = { ...base, [key]: value };
      const want = outcome(() => full(input));
      if (acceptApplicationOptions(input)) {
        accepted++;
        expect({ key, value, ...want }).toMatchObject({ ok: true });
      }
      expect({ key, value, ...outcome(() => fast(input)) }).toEqual({ key, value, ...want });
    }
  }
  expect(accepted).toBeGreaterThan(30);
});

test('a missing required option, an unknown one or a non-object takes the full check and its words', () => {
  for (const input of [{ version: '1', providers: [] }, { name: 'n', version: '1' }, { ...base, nmae: 'x' }, [], 'x']) {
    if (typeof input === 'object' && !Array.isArray(input)) expect(acceptApplicationOptions(input)).toBe(false);
    expect(outcome(() => fast(input))).toEqual(outcome(() => full(input)));
  }
});

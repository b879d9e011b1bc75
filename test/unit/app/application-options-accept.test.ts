/**
 * `acceptApplicationOptions`, the hand-written check that lets a start-up skip class-validator for
 * McpApplication.create's options (issue 38), says yes only where the decorators do, and gives the
 * same frozen options; create then loads neither class-validator's executor nor the decorated classes.
 */
import 'reflect-metadata';
import { container } from 'tsyringe';
import { ApplicationOptions, ServerIdentity } from '../../../src/app/application-options';
import {
  ACCEPTED_KEYS,
  acceptApplicationOptions,
  acceptedApplicationOptions,
  IDENTITY_KEYS,
} from '../../../src/app/application-options-check';
import { knownOptionKeys, validateOptions } from '../../../src/config/validate-options';
import { ContextServerModule } from '../../../src';

const full = (input: unknown) => validateOptions(ApplicationOptions, input, { label: 'ApplicationOptions' });
// What McpApplication.create does.
const fast = (input: unknown) =>
  acceptApplicationOptions(input) ? acceptedApplicationOptions(input) : full(input);
const outcome = (run: () => unknown) => {
  try {
    const value = run() as object;
    // The accepted options are a plain object, not an ApplicationOptions: only the app reads them.
    return { ok: true, entries: Object.entries(value), frozen: Object.isFrozen(value) };
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
    expect(acceptApplicationOptions(input)).toBe(false);
    expect(outcome(() => fast(input))).toEqual(outcome(() => full(input)));
  }
});

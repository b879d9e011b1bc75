/**
 * `noOptionsGiven` (issue 38): the classes that take it give, for no options, exactly what the full
 * check gives (none of their options is required), nested defaults frozen as well.
 */
import 'reflect-metadata';
import { noOptionsGiven, validateOptions } from '../../../src/config/validate-options';
import {
  ContextServerOptions,
  resolveServerOptions,
  SERVER_OPTIONS_CHECK,
} from '../../../src/server/core/server-options';
import { StdioOptions, validateStdioOptions } from '../../../src/transports/stdio-options';

const shape = (value: object): unknown => ({
  proto: Object.getPrototypeOf(value),
  frozen: Object.isFrozen(value),
  entries: Object.entries(value).map(([k, v]) =>
    typeof v === 'object' && v !== null && !Array.isArray(v) ? [k, shape(v)] : [k, v],
  ),
});

test('ContextServerOptions: nothing given is the full check of nothing', () => {
  const full = validateOptions(ContextServerOptions, {}, SERVER_OPTIONS_CHECK);
  expect(shape(resolveServerOptions({}))).toEqual(shape(full));
});

test('StdioOptions: nothing given is the full check of nothing', () => {
  expect(shape(validateStdioOptions({}))).toEqual(shape(validateOptions(StdioOptions, {}, { label: 'StdioOptions' })));
  expect(shape(validateStdioOptions())).toEqual(shape(validateOptions(StdioOptions, {}, { label: 'StdioOptions' })));
});

test('anything given takes the full check', () => {
  expect(noOptionsGiven({ a: undefined })).toBe(false);
  expect(() => resolveServerOptions({ legacyAskTimeoutMs: 0 })).toThrow(/legacyAskTimeoutMs/);
  expect(() => validateStdioOptions({ maxFrameBytes: 1 })).toThrow(/maxFrameBytes/);
});

/**
 * validateOptions checks the rules of the options given and trusts the class defaults of the rest
 * (every default passes its rules: option-defaults.test.ts). What a full check would refuse is still
 * refused, with the same lines: a bad value given, a null (which class-validator's skipMissingProperties
 * would skip), a nested option given partly or with a null, a required option left out.
 */
import 'reflect-metadata';
import { FrameworkError, McpApplication } from '../../../src';
import { resolveServerOptions } from '../../../src/server/core/server-options';

function refusal(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    expect((error as FrameworkError).code).toBe('OMC_INVALID_OPTIONS');
    return (error as FrameworkError).message.split('\n').slice(1).map((l) => l.replace(/^\s*- /, ''));
  }
  throw new Error('expected the options to be refused');
}

test('defaults alone, and good values given, pass and keep the defaults of the rest', () => {
  const options = resolveServerOptions({ pageSize: 5, listCache: { ttlMs: 60_000 } });
  expect(options.pageSize).toBe(5);
  expect(options.maxReasks).toBe(3);
  expect(options.listCache).toMatchObject({ ttlMs: 60_000 });
  expect(resolveServerOptions({}).pageSize).toBe(100);
});

test('a bad value given, and several: each named', () => {
  expect(refusal(() => resolveServerOptions({ pageSize: 0 }))).toEqual(['pageSize: must not be less than 1 (got 0)']);
  expect(refusal(() => resolveServerOptions({ pageSize: 0, maxReasks: 11, replayLint: 'loud' as never }))).toEqual([
    'maxReasks: must not be greater than 10 (got 11)',
    'pageSize: must not be less than 1 (got 0)',
    'replayLint: must be one of the following values: off, warn, error',
  ]);
});

test('null given is refused like any other bad value (an @IsOptional option takes it as left out)', () => {
  expect(refusal(() => resolveServerOptions({ pageSize: null as never }))).toContain(
    'pageSize: must not be greater than 10000',
  );
  expect(resolveServerOptions({ authenticate: null as never }).authenticate).toBeNull();
});

test('a nested option: a bad, null or undefined field is refused', () => {
  const bad = refusal(() => resolveServerOptions({ listCache: { ttlMs: -1 } }));
  expect(bad).toHaveLength(1);
  expect(bad[0]).toMatch(/^listCache\.ttlMs: .*\(got -1\)$/);
  expect(refusal(() => resolveServerOptions({ listCache: { ttlMs: null } as never }))[0]).toMatch(/^listCache\.ttlMs: /);
  expect(refusal(() => resolveServerOptions({ listCache: { ttlMs: undefined } as never }))[0]).toMatch(/^listCache\.ttlMs: /);
});

test('a required option left out is still named', () => {
  expect(refusal(() => McpApplication.create({ version: '1.0.0', providers: [] } as never))).toEqual([
    'name: must be shorter than or equal to 256 characters',
    'name: must not be empty; clients show it and requestState is bound to it',
    'name: must be a string (the server name clients see)',
  ]);
});

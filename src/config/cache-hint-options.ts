/**
 * 2026-07-28 cache hints (`ttlMs`, `cacheScope`): one definition for the server options and for `@Resource({ cache })`.
 */
import { IsIn, IsInt, Min } from 'class-validator';
import type { CacheHints } from '../metadata/options';
import { validateOptions } from './validate-options';

export class CacheHintOptions implements CacheHints {
  @IsInt() @Min(0) ttlMs = 0;
  @IsIn(['public', 'private']) cacheScope: 'public' | 'private' = 'private';
}

/** A resource's own `cache` option, checked at bootstrap like any other options object. */
export function validateCacheHints(owner: string, input: unknown): Readonly<CacheHints> {
  return validateOptions(CacheHintOptions, input, { label: `${owner} cache` });
}

/**
 * McpApplication.create's options checked by hand (issue 38): the rules of ApplicationOptions'
 * decorators for the options most apps give, so a start-up neither runs class-validator for them nor
 * loads the decorated classes (application-options.js is one of the bundle's lazy modules). Anything
 * this check does not certainly pass goes through validateOptions, which words every refusal.
 */
import type { Implementation } from '../protocol/types';
import type { ApplicationOptions, ServerIdentity } from './application-options';
import { isProvider } from './providers';

/** ServerIdentity's options (a test holds the list to the class). */
export const IDENTITY_KEYS: readonly (keyof ServerIdentity)[] = [
  'name',
  'version',
  'title',
  'description',
  'websiteUrl',
  'icons',
];

const isText = (v: unknown, max = Infinity): boolean => typeof v === 'string' && v !== '' && v.length <= max;
const isOptionalText = (v: unknown): boolean => v === undefined || typeof v === 'string';
const isOptionalList = (v: unknown, each: (item: unknown) => boolean): boolean =>
  v === undefined || (Array.isArray(v) && v.every(each));
const hasMethod = (v: unknown, method: string): boolean =>
  (typeof v === 'object' || typeof v === 'function') &&
  v !== null &&
  typeof (v as Record<string, unknown>)[method] === 'function';
const isPipelineRef = (method: string) => (r: unknown) =>
  typeof r === 'function' || (typeof r === 'object' && hasMethod(r, method));

/**
 * The decorators' rules above, by hand, for validateOptions' `accept` (issue 38: a start-up otherwise
 * runs class-validator for these options alone). Yes only when each given option certainly passes;
 * a null, a too long name (MaxLength counts a surrogate pair once) or anything unusual takes the full
 * check. test/unit/app/application-options-accept.test.ts holds it to the decorators.
 */
const ACCEPT: Record<keyof ApplicationOptions, (v: unknown) => boolean> = {
  name: (v) => isText(v, 256),
  version: (v) => isText(v),
  title: isOptionalText,
  description: isOptionalText,
  websiteUrl: isOptionalText,
  icons: (v) => v === undefined || Array.isArray(v),
  providers: (v) => Array.isArray(v) && v.every(isProvider),
  modules: (v) => isOptionalList(v, (m) => hasMethod(m, 'register')),
  guards: (v) => isOptionalList(v, isPipelineRef('canActivate')),
  interceptors: (v) => isOptionalList(v, isPipelineRef('intercept')),
  filters: (v) => isOptionalList(v, isPipelineRef('catch')),
  container: (v) =>
    v === undefined || (typeof v === 'object' && hasMethod(v, 'createChildContainer') && hasMethod(v, 'resolve')),
};

/** The option names `acceptApplicationOptions` knows (a test holds them to the class). */
export const ACCEPTED_KEYS: readonly string[] = Object.keys(ACCEPT);

export function acceptApplicationOptions(input: unknown): input is ApplicationOptions {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return false;
  for (const key of Object.keys(input)) if (!Object.hasOwn(ACCEPT, key)) return false;
  // Every rule, given or not: a required option (name, version, providers) refuses undefined.
  const given = input as Record<string, unknown>;
  for (const key of ACCEPTED_KEYS) if (!ACCEPT[key as keyof ApplicationOptions](given[key])) return false;
  return true;
}

/** The identity fields of validated application options (those given), frozen: the app's `info`. */
export function identityOf(options: Readonly<Partial<ApplicationOptions>>): Implementation {
  const identity: Partial<ServerIdentity> = {};
  for (const key of IDENTITY_KEYS) {
    if (options[key] !== undefined) Object.assign(identity, { [key]: options[key] });
  }
  return Object.freeze(identity as ServerIdentity);
}

/** Options `acceptApplicationOptions` passed, as validateOptions would give them: those given, frozen. */
export function acceptedApplicationOptions(input: ApplicationOptions): Readonly<ApplicationOptions> {
  const options: Partial<ApplicationOptions> = {};
  for (const key of Object.keys(input) as (keyof ApplicationOptions)[]) {
    if (input[key] !== undefined) Object.assign(options, { [key]: input[key] });
  }
  return Object.freeze(options as ApplicationOptions);
}

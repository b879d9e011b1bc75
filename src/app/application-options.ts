/**
 * `McpApplication.create` options: the server's identity, providers and modules, checked like every other options
 * class.
 */
import { IsArray, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateBy } from 'class-validator';
import type { DependencyContainer } from 'tsyringe';
import { ArePipelineRefs, HasMethods } from '../config/option-rules';
import type { ConfigModule } from '../config/modules';
import type { Icon, Implementation } from '../protocol/types';
import type { Provider } from './providers';
import type { FilterRef, GuardRef, InterceptorRef } from '../decorators/use-pipeline';

function isProvider(p: unknown): boolean {
  if (typeof p === 'function') return true;
  if (typeof p !== 'object' || p === null || !('provide' in p)) return false;
  return (
    'useValue' in p ||
    typeof (p as { useClass?: unknown }).useClass === 'function' ||
    typeof (p as { useFactory?: unknown }).useFactory === 'function'
  );
}

const AreProviders = () =>
  ValidateBy({
    name: 'areProviders',
    validator: {
      validate: (v: unknown) => Array.isArray(v) && v.every(isProvider),
      defaultMessage: () => 'must list classes or { provide, useValue | useClass | useFactory } objects',
    },
  });

const AreModules = () =>
  ValidateBy({
    name: 'areModules',
    validator: {
      validate: (v: unknown) =>
        Array.isArray(v) && v.every((m) => typeof (m as ConfigModule | null)?.register === 'function'),
      defaultMessage: () => 'must list configuration modules, e.g. ContextServerModule.configure({...})',
    },
  });

/** The server's identity, as clients see it in initialize / server/discover. */
export class ServerIdentity implements Implementation {
  @IsString({ message: 'name must be a string (the server name clients see)' })
  @IsNotEmpty({ message: 'name must not be empty; clients show it and requestState is bound to it' })
  @MaxLength(256)
  name!: string;

  @IsString({ message: 'version must be a string, e.g. "1.0.0"' })
  @IsNotEmpty({ message: 'version must not be empty, e.g. "1.0.0"' })
  version!: string;

  @IsOptional() @IsString() title?: string;
  @IsOptional() @IsString() description?: string;
  @IsOptional() @IsString() websiteUrl?: string;
  @IsOptional() @IsArray() icons?: Icon[];
}

/** The server's identity (`name` is also the default requestState audience), providers and modules. */
export class ApplicationOptions extends ServerIdentity {
  /** Classes with @Tool/@Prompt/@Resource methods, services, and provider objects. */
  @AreProviders() providers!: Provider[];

  /** Configuration modules, e.g. `ContextServerModule.configure({...})`. */
  @IsOptional() @AreModules() modules?: ConfigModule[];

  /** Guards for every tool, prompt, resource and template (outermost: before the class's and the method's). */
  @IsOptional() @ArePipelineRefs('canActivate') guards?: GuardRef[];

  /** Interceptors around every handler (outermost). */
  @IsOptional() @ArePipelineRefs('intercept') interceptors?: InterceptorRef[];

  /** Exception filters for every handler (tried last, after the method's and the class's). */
  @IsOptional() @ArePipelineRefs('catch') filters?: FilterRef[];

  /** Parent container; defaults to tsyringe's global container. */
  @IsOptional() @HasMethods('createChildContainer', 'resolve') container?: DependencyContainer;
}

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

export function acceptApplicationOptions(input: Record<string, unknown>): boolean {
  for (const key of Object.keys(input)) if (!Object.hasOwn(ACCEPT, key)) return false;
  // Every rule, given or not: a required option (name, version, providers) refuses undefined.
  for (const key of ACCEPTED_KEYS) if (!ACCEPT[key as keyof ApplicationOptions](input[key])) return false;
  return true;
}

/** The identity fields of validated application options (those given), frozen: the app's `info`. */
export function identityOf(options: Readonly<ApplicationOptions>): Implementation {
  const identity: Partial<ServerIdentity> = {};
  for (const key of IDENTITY_KEYS) {
    if (options[key] !== undefined) Object.assign(identity, { [key]: options[key] });
  }
  return Object.freeze(identity as ServerIdentity);
}

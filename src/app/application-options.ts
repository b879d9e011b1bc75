/**
 * `McpApplication.create` options: the server's identity, providers and modules, checked like every other options
 * class.
 */
import { IsArray, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateBy } from 'class-validator';
import type { DependencyContainer } from 'tsyringe';
import { ArePipelineRefs, HasMethods } from '../config/option-rules';
import type { ConfigModule } from '../config/modules';
import type { Icon, Implementation } from '../protocol/types';
import { isProvider, type Provider } from './providers';
import type { FilterRef, GuardRef, InterceptorRef } from '../decorators/use-pipeline';

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

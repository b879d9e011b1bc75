/**
 * `MountOptions`: one upstream MCP server mounted under a namespace — a child process over stdio
 * (`command`, `args`, `env`, `cwd`) or a Streamable HTTP `url` (with `headers` or `auth`), either
 * revision. Validated once (unknown keys refused), then frozen, like every options class.
 */
import {
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  ValidateBy,
} from 'class-validator';
import { ArePipelineRefs, IsFunction } from '../config/option-rules';
import type { FilterRef, GuardRef, InterceptorRef } from '../decorators/use-pipeline';
import { validateOptions } from '../config/validate-options';
import { FrameworkError } from '../errors/framework-error';
import { CLIENT_PROTOCOL_VERSIONS, type ClientProtocolVersion } from '../client/options';
import type { OAuthInit } from '../client/auth/auth-options';

const IsUrl = () =>
  ValidateBy({
    name: 'isHttpUrl',
    validator: {
      validate: (v: unknown) => typeof v === 'string' && /^https?:\/\/[^\s]+$/.test(v),
      defaultMessage: () => '$property must be an http:// or https:// URL',
    },
  });

export class MountOptions {
  /**
   * Prefix of the mounted names: tool `echo` becomes `<namespace>_echo`, prompts likewise, and
   * resource `demo://a` becomes `<namespace>+demo://a` (a URI scheme of its own, so two mounts
   * never collide). A letter, then letters, digits or `-`; at most 32.
   */
  @Matches(/^[A-Za-z][A-Za-z0-9-]{0,31}$/, { message: 'namespace must be a letter then letters, digits or -' })
  namespace!: string;
  /** Prefix names and URIs with the namespace (default). Off: the upstream's own names (one upstream only). */
  @IsBoolean() prefixNames = true;
  /** stdio: the program to start (with `args`, `env`, `cwd`). */
  @IsOptional() @IsString() command?: string;
  @IsOptional() @IsArray() @IsString({ each: true }) args?: string[];
  @IsOptional() @IsObject() env?: Record<string, string | undefined>;
  @IsOptional() @IsString() cwd?: string;
  /** Streamable HTTP: the upstream's MCP endpoint (with `headers`, or `auth` for our OAuth client). */
  @IsOptional() @IsUrl() url?: string;
  @IsOptional() @IsObject() headers?: Record<string, string>;
  @IsOptional() @IsObject() auth?: OAuthInit;
  /** Which revision to speak upstream; `auto` prefers 2026-07-28 and falls back to `initialize`. */
  @IsIn(CLIENT_PROTOCOL_VERSIONS as unknown as string[]) protocolVersion: ClientProtocolVersion = 'auto';
  /** Per upstream request (not counting time parked waiting for our caller). */
  @IsInt() @Min(0) requestTimeoutMs = 60_000;
  /** Legacy upstream: calls waiting for their callers' answers, per principal and per instance. */
  @IsInt() @Min(1) @Max(10_000) maxParkedPerPrincipal = 16;
  @IsInt() @Min(1) @Max(1_000_000) maxParked = 1_000;
  /** Legacy upstream: a parked call not resumed within this is cancelled upstream. */
  @IsInt() @Min(1_000) @Max(3_600_000) parkTimeoutMs = 300_000;
  /** Questions one upstream call may ask; further asks are refused (a flood of asks is bounded). */
  @IsInt() @Min(1) @Max(10_000) maxAsksPerCall = 32;
  /** Items kept per list (tools, prompts, resources, templates); the rest is dropped and reported. */
  @IsInt() @Min(1) @Max(100_000) maxListItems = 1_000;
  /** stdio: restart back-off after the child dies, doubling from min to max. */
  @IsInt() @Min(10) restartMinMs = 250;
  @IsInt() @Min(10) restartMaxMs = 30_000;
  /**
   * Guards, interceptors and filters for every item of this mount (after the app-wide ones), as
   * `@UseGuards` & co. take them: classes (resolved from the app's container) or instances.
   */
  @IsOptional() @ArePipelineRefs('canActivate') guards?: GuardRef[];
  @IsOptional() @ArePipelineRefs('intercept') interceptors?: InterceptorRef[];
  @IsOptional() @ArePipelineRefs('catch') filters?: FilterRef[];
  /** What happens upstream (failures, restarts, dropped items); defaults to stderr. */
  @IsOptional() @IsFunction() onEvent?: (message: string) => void;
}

const PIPELINE_METHODS = [
  ['guards', 'canActivate'],
  ['interceptors', 'intercept'],
  ['filters', 'catch'],
] as const;

export type MountInit = Partial<MountOptions> & { namespace: string };

export function resolveMountOptions(input: MountInit): Readonly<MountOptions> {
  const options = validateOptions(MountOptions, input, { label: 'MountOptions' });
  if ((options.command === undefined) === (options.url === undefined)) {
    throw new FrameworkError(
      'OMC_INVALID_OPTIONS',
      `MountOptions "${options.namespace}": give exactly one of command (stdio) or url (Streamable HTTP).`,
    );
  }
  for (const [kind, method] of PIPELINE_METHODS) {
    const notOne = (options[kind] ?? []).find(
      (r) => typeof r === 'function' && typeof (r.prototype as Record<string, unknown>)?.[method] !== 'function',
    );
    if (notOne) {
      throw new FrameworkError(
        'OMC_INVALID_OPTIONS',
        `MountOptions "${options.namespace}": ${kind} lists ${(notOne as Function).name || 'a class'}, which has no ${method}() method.`,
      );
    }
  }
  if (options.restartMaxMs < options.restartMinMs) {
    throw new FrameworkError('OMC_INVALID_OPTIONS', 'MountOptions: restartMaxMs must be at least restartMinMs.');
  }
  return options;
}

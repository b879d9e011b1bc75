/**
 * Where a `ContextClient` connects (DESIGN D9): each kind of target is an options class, validated
 * at `connect` like every other options object (unknown keys refused with a "did you mean"), then
 * frozen. The kind is told by its key: `transport`, `app`, `command`, else `url`.
 */
import { IsArray, IsIn, IsInt, IsNotEmpty, IsObject, IsOptional, IsString, Min, ValidateBy } from 'class-validator';
import type { EndpointHost } from '../server/server-endpoint';
import type { Principal } from '../context/principal';
import { HasMethods, IsFunction } from '../config/option-rules';
import { validateOptions } from '../config/validate-options';
import type { ClientTransport } from './transport';
import { resolveOAuthOptions, type OAuthInit, type OAuthOptions } from './auth/auth-options';

/** Streamable HTTP: the server's MCP endpoint. */
export class HttpTarget {
  @IsString() @IsNotEmpty() url!: string;
  /** Sent on every request (authorization, for example). */
  @IsOptional() @IsObject() headers?: Record<string, string>;
  /** Replace fetch (proxies, tests). */
  @IsOptional() @IsFunction() fetch?: typeof fetch;
  /** Sign in with OAuth when the server answers 401 (see docs/auth.md). */
  @IsOptional() @IsObject() auth?: OAuthInit | Readonly<OAuthOptions>;
}

/** stdio: the server process to spawn. */
export class StdioTarget {
  @IsString() @IsNotEmpty() command!: string;
  @IsOptional() @IsArray() @IsString({ each: true }) args?: string[];
  @IsOptional() @IsObject() env?: Record<string, string | undefined>;
  @IsOptional() @IsString() cwd?: string;
  /** `inherit` passes the server's stderr through; `collect` keeps it (see `stderrText`). Default inherit. */
  @IsOptional() @IsIn(['inherit', 'collect', 'ignore']) stderr?: 'inherit' | 'collect' | 'ignore';
  /** How long close() waits after ending stdin before SIGTERM (and again before SIGKILL). Default 2000. */
  @IsOptional() @IsInt() @Min(0) shutdownGraceMs?: number;
}

const HasEndpoint = () =>
  ValidateBy({
    name: 'hasEndpoint',
    validator: {
      validate: (v: unknown) => typeof v === 'object' && v !== null && 'endpoint' in v,
      defaultMessage: () => '$property must be an McpApplication (or an object with an endpoint)',
    },
  });

/** In memory: an application in this process. */
export class AppTarget {
  @HasEndpoint() app!: EndpointHost;
  @IsOptional() @IsObject() principal?: Principal;
}

/** Any ClientTransport (a custom wire, or a fake in tests). */
export class TransportTarget {
  @HasMethods('start', 'request', 'notify', 'close') transport!: ClientTransport;
}

export type ClientTarget = HttpTarget | StdioTarget | AppTarget | TransportTarget;

export type ValidatedTarget =
  | { kind: 'transport'; target: Readonly<TransportTarget> }
  | { kind: 'app'; target: Readonly<AppTarget> }
  | { kind: 'stdio'; target: Readonly<StdioTarget> }
  | { kind: 'http'; target: Readonly<HttpTarget> };

function has(target: unknown, key: string): boolean {
  return typeof target === 'object' && target !== null && key in target;
}

/** Tells the kind of target by its key and validates it against that kind's class. */
export function validateTarget(target: ClientTarget): ValidatedTarget {
  if (has(target, 'transport'))
    return { kind: 'transport', target: validateOptions(TransportTarget, target, { label: 'TransportTarget' }) };
  if (has(target, 'app')) return { kind: 'app', target: validateOptions(AppTarget, target, { label: 'AppTarget' }) };
  if (has(target, 'command'))
    return { kind: 'stdio', target: validateOptions(StdioTarget, target, { label: 'StdioTarget' }) };
  const http = target as HttpTarget;
  const auth = http.auth === undefined ? undefined : resolveOAuthOptions(http.auth);
  return {
    kind: 'http',
    target: validateOptions(HttpTarget, auth ? { ...http, auth } : target, { label: 'HttpTarget' }),
  };
}

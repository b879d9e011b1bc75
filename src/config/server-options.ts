/** `ContextServerOptions`: everything the server (not the transport) can be configured with. */
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, Min, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import type { Principal } from '../context/principal';
import type { ServerLogger } from '../server/server-logger';

export class CacheHintOptions {
  @IsInt() @Min(0) ttlMs = 0;
  @IsIn(['public', 'private']) cacheScope: 'public' | 'private' = 'private';
}

/** Credentials a transport found on a request, for the authentication hook. */
export interface AuthRequest {
  transport: 'http' | 'stdio' | 'memory';
  headers?: Record<string, string | string[] | undefined>;
  env?: NodeJS.ProcessEnv;
}

export type Authenticate = (request: AuthRequest) => Principal | undefined | Promise<Principal | undefined>;

export class ContextServerOptions {
  /** Key (or ring: first mints, all verify) for sealing requestState; ephemeral per process when unset. */
  @IsOptional() requestStateKey?: string | Uint8Array | Array<string | Uint8Array>;
  /** AES-256-GCM instead of HMAC-SHA256 integrity: the client can no longer read the state. */
  @IsOptional() @IsBoolean() encryptRequestState?: boolean;
  /** Seconds each round's requestState stays valid. */
  @IsOptional() @IsInt() @Min(1) requestStateLifetime?: number;
  /** Seconds a whole multi-round flow may take. */
  @IsOptional() @IsInt() @Min(1) maxFlowLifetime?: number;
  /** Largest requestState accepted or minted (bytes of the wire string). */
  @IsOptional() @IsInt() @Min(1024) maxRequestStateBytes?: number;
  /** Binds state to this audience (defaults to the server name). */
  @IsOptional() @IsString() requestStateAudience?: string;
  /** Each requestState can be redeemed once. */
  @IsOptional() @IsBoolean() singleUseRequestState?: boolean;
  @IsOptional() singleUseStore?: { claim(tokenId: string, expiresAtMs: number): boolean | Promise<boolean> };

  /** Legacy real-await: how long one server-to-client request may wait for its reply. */
  @IsInt() @Min(1) legacyAskTimeoutMs = 600_000;
  /** How often an invalid answer is asked again on legacy before the ask fails. */
  @IsInt() @Min(0) @Max(10) maxReasks = 3;
  /** Legacy stand-in for a requestState-only round (`ctx.pause()`). */
  @IsInt() @Min(0) pauseMs = 250;
  /** Items per page of list results. */
  @IsInt() @Min(1) @Max(10_000) pageSize = 100;
  /** 2026 cache hints for server/discover and list results. */
  @ValidateNested() @Type(() => CacheHintOptions) listCache: CacheHintOptions = new CacheHintOptions();
  /** 2026 cache hints for resources/read unless a resource sets its own. */
  @ValidateNested() @Type(() => CacheHintOptions) readCache: CacheHintOptions = new CacheHintOptions();
  /** Guidance for the model, sent in initialize / server/discover. */
  @IsOptional() @IsString() instructions?: string;
  /** Establishes the principal of a request (HTTP headers, stdio environment). */
  @IsOptional() authenticate?: Authenticate;
  /** Server diagnostics (refusal reasons, warnings). Defaults to stderr. */
  @IsOptional() logger?: ServerLogger;
}

/**
 * `ContextClientOptions` (DESIGN D9, D11): validated once at `ContextClient.connect`, then frozen.
 * Each handler given here is also a capability the client declares; none given, none declared.
 */
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, Min, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { IsFunction } from '../config/option-rules';
import { validateOptions } from '../config/validate-options';
import { LOG_LEVELS, type LogLevel } from '../protocol/meta';
import type { Era } from '../protocol/versions';
import type { CreateMessageParams, CreateMessageResult, ElicitResult, Root } from '../protocol/types';
import type { JsonObject } from '../protocol/jsonrpc';

export const CLIENT_PROTOCOL_VERSIONS = ['auto', '2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'] as const;
export type ClientProtocolVersion = (typeof CLIENT_PROTOCOL_VERSIONS)[number];

/** What a handler learns about the ask it answers. */
export interface InputContext {
  /** The input-request key on 2026-07-28; undefined for a legacy server-to-client request. */
  key?: string;
  era: Era;
  signal: AbortSignal;
}

export interface ElicitFormParams extends JsonObject {
  mode?: 'form';
  message: string;
  requestedSchema: JsonObject;
}
export interface ElicitUrlParams extends JsonObject {
  mode: 'url';
  message: string;
  url: string;
  elicitationId?: string;
}

/** A value, or a promise of it: what a client's input handlers may return. */
export type Awaitable<T> = T | Promise<T>;
export type ElicitationHandler = (params: ElicitFormParams, ctx: InputContext) => Awaitable<ElicitResult>;
export type UrlElicitationHandler = (params: ElicitUrlParams, ctx: InputContext) => Awaitable<ElicitResult>;
export type SamplingHandler = (params: CreateMessageParams, ctx: InputContext) => Awaitable<CreateMessageResult>;
export type RootsHandler = (ctx: InputContext) => Awaitable<Root[] | { roots: Root[] }>;

export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}
export type ProgressCallback = (update: ProgressUpdate) => void;
export interface LogMessage {
  level: LogLevel;
  logger?: string;
  data: unknown;
}

export class ClientInfoOptions {
  @IsString() name = 'onemodelcontext-client';
  @IsString() version = '0.1.0';
  @IsOptional() @IsString() title?: string;
  @IsOptional() @IsString() description?: string;
  @IsOptional() @IsString() websiteUrl?: string;
}

export class ContextClientOptions {
  @ValidateNested() @Type(() => ClientInfoOptions) clientInfo: ClientInfoOptions = new ClientInfoOptions();
  /** `auto` prefers 2026-07-28 (probes `server/discover`) and falls back to `initialize`. */
  @IsIn(CLIENT_PROTOCOL_VERSIONS as unknown as string[]) protocolVersion: ClientProtocolVersion = 'auto';
  /** How many `input_required` results one call answers before it gives up. */
  @IsInt() @Min(1) @Max(1000) maxInputRounds = 8;
  /** Pause before retrying a round that carried only `requestState` (server load shedding). */
  @IsInt() @Min(0) @Max(60_000) stateOnlyBackoffMs = 250;
  /** Per request; 0 disables. Long-lived `listen` streams are exempt. */
  @IsInt() @Min(0) requestTimeoutMs = 60_000;
  /** stdio/in-memory `auto`: how long the `server/discover` probe waits before assuming a legacy server. */
  @IsInt() @Min(1) probeTimeoutMs = 5_000;
  @IsOptional() @IsFunction() elicitation?: ElicitationHandler;
  @IsOptional() @IsFunction() urlElicitation?: UrlElicitationHandler;
  @IsOptional() @IsFunction() sampling?: SamplingHandler;
  /** Declare `sampling.tools` (the sampling handler accepts `tools`/`toolChoice`). */
  @IsBoolean() samplingTools = false;
  @IsOptional() @IsFunction() roots?: RootsHandler;
  @IsOptional() @IsFunction() onProgress?: ProgressCallback;
  @IsOptional() @IsFunction() onLog?: (message: LogMessage) => void;
  /** 2026: sent in every request's `_meta`; legacy: `logging/setLevel` after initialize. */
  @IsOptional() @IsIn(LOG_LEVELS as unknown as string[]) logLevel?: LogLevel;
  /**
   * 2026-07-28: declare the tasks extension (SEP-2663), so a server may answer a tool call with a
   * task, which the client then follows to its result (polling, answering its asks).
   */
  @IsBoolean() tasks = true;
  /** Diagnostics (refused tools, dropped messages). Defaults to silence. */
  @IsOptional() @IsFunction() onWarning?: (message: string) => void;
}

export type ContextClientInit = Partial<Omit<ContextClientOptions, 'clientInfo'>> & {
  clientInfo?: Partial<ClientInfoOptions>;
};

export function resolveClientOptions(input: ContextClientInit = {}): Readonly<ContextClientOptions> {
  return validateOptions(ContextClientOptions, input, {
    label: 'ContextClientOptions',
    nested: { clientInfo: ClientInfoOptions },
  });
}

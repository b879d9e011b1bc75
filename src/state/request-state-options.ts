/**
 * requestState options: the one definition of each (ContextServerOptions extends this class),
 * validated with the shared options engine, defaulted, frozen. Keys are parsed here too, so a bad
 * key fails at start-up next to every other bad option.
 */
import { IsBoolean, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min, ValidateBy } from 'class-validator';
import { validateOptions, type OptionProblem } from '../config/validate-options';
import { FrameworkError } from '../errors/framework-error';
import { KeyRing } from './key-ring';
import type { RequestStateKeyInput } from './key-material';
import type { SingleUseStore } from './single-use-store';

export class RequestStateOptions {
  /** One key, or a ring (first mints, all verify, at most 4). Absent: an ephemeral per-process key. */
  @IsOptional()
  requestStateKey?: RequestStateKeyInput | RequestStateKeyInput[];

  /** AES-256-GCM instead of HMAC-SHA256: hides the payload from the client. Default false. */
  @IsOptional()
  @IsBoolean({ message: 'encryptRequestState must be true or false' })
  encryptRequestState?: boolean;

  /** Seconds one round's state stays valid. Default 600. */
  @IsOptional()
  @IsInt({ message: 'requestStateLifetime must be a whole number of seconds (default 600)' })
  @Min(1, { message: 'requestStateLifetime must be at least 1 second' })
  @Max(86_400, { message: 'requestStateLifetime must be at most 86400 seconds (1 day); a round is a user answering a prompt' })
  requestStateLifetime?: number;

  /** Seconds the whole multi-round flow may last, however often it is re-sealed. Default 3600. */
  @IsOptional()
  @IsInt({ message: 'maxFlowLifetime must be a whole number of seconds (default 3600)' })
  @Min(1, { message: 'maxFlowLifetime must be at least 1 second' })
  @Max(604_800, { message: 'maxFlowLifetime must be at most 604800 seconds (7 days)' })
  maxFlowLifetime?: number;

  /** Longest accepted token, in characters (= bytes: tokens are ASCII). Default 65536. */
  @IsOptional()
  @IsInt({ message: 'maxRequestStateBytes must be a whole number of bytes (default 65536)' })
  @Min(1024, { message: 'maxRequestStateBytes must be at least 1024; the envelope alone needs a few hundred bytes' })
  @Max(4 * 1024 * 1024, { message: 'maxRequestStateBytes must be at most 4194304 (the request body limit)' })
  maxRequestStateBytes?: number;

  /** Who the state is for; two services sharing a key refuse each other's state. The server uses its name when absent. */
  @IsOptional()
  @IsString({ message: 'requestStateAudience must be a string (e.g. the server name)' })
  @IsNotEmpty({ message: 'requestStateAudience must not be empty; leave it out to use the server name' })
  @MaxLength(256, { message: 'requestStateAudience must be at most 256 characters' })
  requestStateAudience?: string;

  /** Refuse a second redemption of the same token. Default false. */
  @IsOptional()
  @IsBoolean({ message: 'singleUseRequestState must be true or false' })
  singleUseRequestState?: boolean;

  /** Where used token ids are kept; default is in memory (one instance only). */
  @IsOptional()
  @ValidateBy({
    name: 'isSingleUseStore',
    validator: {
      validate: (value: unknown) => typeof value === 'object' && value !== null && typeof (value as SingleUseStore).claim === 'function',
      defaultMessage: () => 'singleUseStore must be an object with a claim(tokenId, expiresAtMs) method',
    },
  })
  singleUseStore?: SingleUseStore;
}

export interface ResolvedRequestStateOptions {
  readonly keyRing: KeyRing;
  readonly encryptRequestState: boolean;
  readonly requestStateLifetime: number;
  readonly maxFlowLifetime: number;
  readonly maxRequestStateBytes: number;
  readonly requestStateAudience: string | undefined;
  readonly singleUseRequestState: boolean;
  readonly singleUseStore: SingleUseStore | undefined;
}

export const REQUEST_STATE_DEFAULTS = Object.freeze({
  encryptRequestState: false,
  requestStateLifetime: 600,
  maxFlowLifetime: 3600,
  maxRequestStateBytes: 65_536,
  singleUseRequestState: false,
});

const OPTION_NAMES = [
  'requestStateKey',
  'encryptRequestState',
  'requestStateLifetime',
  'maxFlowLifetime',
  'maxRequestStateBytes',
  'requestStateAudience',
  'singleUseRequestState',
  'singleUseStore',
] as const;

const resolvedOptions = new WeakSet<object>();

export function isResolvedRequestStateOptions(value: unknown): value is ResolvedRequestStateOptions {
  return typeof value === 'object' && value !== null && resolvedOptions.has(value);
}

/** A key-material message starts with the field it blames (`requestStateKey` or `requestStateKey[1]`). */
function keyProblem(error: FrameworkError): OptionProblem {
  const match = /^(requestStateKey(?:\[\d+\])?)\s+(.*)$/s.exec(error.detail);
  return match ? { field: match[1]!, message: match[2]! } : { field: 'requestStateKey', message: error.detail };
}

/**
 * The rules that span several requestState options (and the key's own parsing); used by
 * `ContextServerModule.configure` and by `resolveRequestStateOptions`, so both say the same.
 */
export function requestStateProblems(options: Readonly<RequestStateOptions>): OptionProblem[] {
  const problems: OptionProblem[] = [];
  if (options.requestStateKey !== undefined) {
    try {
      KeyRing.fromOption(options.requestStateKey);
    } catch (error) {
      if (!(error instanceof FrameworkError)) throw error;
      problems.push(keyProblem(error));
    }
  }
  const lifetime = options.requestStateLifetime ?? REQUEST_STATE_DEFAULTS.requestStateLifetime;
  const flowLifetime = options.maxFlowLifetime ?? REQUEST_STATE_DEFAULTS.maxFlowLifetime;
  if (Number.isInteger(lifetime) && Number.isInteger(flowLifetime) && flowLifetime < lifetime) {
    problems.push({ field: 'maxFlowLifetime', message: `${flowLifetime}s must be at least requestStateLifetime (${lifetime}s)` });
  }
  if (options.singleUseStore !== undefined && options.singleUseRequestState !== true) {
    problems.push({ field: 'singleUseStore', message: 'is set but singleUseRequestState is not true; set singleUseRequestState: true to use it' });
  }
  return problems;
}

/**
 * Validate, default and freeze. Only the requestState keys of `input` are read, so the server's
 * (already validated) options object can be passed as is. Throws FrameworkError('OMC_INVALID_OPTIONS')
 * naming every bad option.
 */
export function resolveRequestStateOptions(
  input: Partial<RequestStateOptions> = {},
  deps: { random?: (n: number) => Buffer } = {},
): Readonly<ResolvedRequestStateOptions> {
  const own: Record<string, unknown> = {};
  for (const name of OPTION_NAMES) {
    if (input[name] !== undefined) own[name] = input[name];
  }
  const options = validateOptions(RequestStateOptions, own, { label: 'requestState options', checks: requestStateProblems });
  const resolved: ResolvedRequestStateOptions = Object.freeze({
    keyRing: KeyRing.fromOption(options.requestStateKey, deps.random),
    encryptRequestState: options.encryptRequestState ?? REQUEST_STATE_DEFAULTS.encryptRequestState,
    requestStateLifetime: options.requestStateLifetime ?? REQUEST_STATE_DEFAULTS.requestStateLifetime,
    maxFlowLifetime: options.maxFlowLifetime ?? REQUEST_STATE_DEFAULTS.maxFlowLifetime,
    maxRequestStateBytes: options.maxRequestStateBytes ?? REQUEST_STATE_DEFAULTS.maxRequestStateBytes,
    requestStateAudience: options.requestStateAudience,
    singleUseRequestState: options.singleUseRequestState ?? REQUEST_STATE_DEFAULTS.singleUseRequestState,
    singleUseStore: options.singleUseStore,
  });
  resolvedOptions.add(resolved);
  return resolved;
}

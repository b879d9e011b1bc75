/**
 * requestState options: the one definition of each (ContextServerOptions extends this class),
 * validated with the shared options engine, defaulted, frozen. Keys are parsed here too, so a bad
 * key fails at start-up next to every other bad option.
 */
import { IsBoolean, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min, ValidateBy } from 'class-validator';
import { isValidatedOptions, knownOptionKeys, validateOptions, type OptionProblem } from '../config/validate-options';
import { FrameworkError } from '../errors/framework-error';
import { KeyRing } from './key-ring';
import type { RequestStateKeyInput } from './key-material';
import type { SingleUseStore } from './single-use-store';

const MAX_AUDIENCE_LENGTH = 256;

function isSingleUseStore(value: unknown): value is SingleUseStore {
  return typeof value === 'object' && value !== null && typeof (value as SingleUseStore).claim === 'function';
}

export class RequestStateOptions {
  /** One key, or a ring (first mints, all verify, at most 4). Absent: an ephemeral per-process key. */
  @IsOptional()
  requestStateKey?: RequestStateKeyInput | RequestStateKeyInput[];

  /** AES-256-GCM instead of HMAC-SHA256: hides the payload from the client. */
  @IsBoolean({ message: 'encryptRequestState must be true or false' })
  encryptRequestState = false;

  /** Seconds one round's state stays valid. */
  @IsInt({ message: 'requestStateLifetime must be a whole number of seconds (default 600)' })
  @Min(1, { message: 'requestStateLifetime must be at least 1 second' })
  @Max(86_400, {
    message: 'requestStateLifetime must be at most 86400 seconds (1 day); a round is a user answering a prompt',
  })
  requestStateLifetime = 600;

  /** Seconds the whole multi-round flow may last, however often it is re-sealed. */
  @IsInt({ message: 'maxFlowLifetime must be a whole number of seconds (default 3600)' })
  @Min(1, { message: 'maxFlowLifetime must be at least 1 second' })
  @Max(604_800, { message: 'maxFlowLifetime must be at most 604800 seconds (7 days)' })
  maxFlowLifetime = 3600;

  /** Longest accepted token, in characters (= bytes: tokens are ASCII). */
  @IsInt({ message: 'maxRequestStateBytes must be a whole number of bytes (default 65536)' })
  @Min(1024, { message: 'maxRequestStateBytes must be at least 1024; the envelope alone needs a few hundred bytes' })
  @Max(4 * 1024 * 1024, { message: 'maxRequestStateBytes must be at most 4194304 (the request body limit)' })
  maxRequestStateBytes = 65_536;

  /**
   * Who the state is for; two services sharing a key refuse each other's state. The server uses its name when absent.
   */
  @IsOptional()
  @IsString({ message: 'requestStateAudience must be a string (e.g. the server name)' })
  @IsNotEmpty({ message: 'requestStateAudience must not be empty; leave it out to use the server name' })
  @MaxLength(MAX_AUDIENCE_LENGTH, {
    message: `requestStateAudience must be at most ${MAX_AUDIENCE_LENGTH} characters`,
  })
  requestStateAudience?: string;

  /** Refuse a second redemption of the same token. */
  @IsBoolean({ message: 'singleUseRequestState must be true or false' })
  singleUseRequestState = false;

  /** Where used token ids are kept; default is in memory (one instance only). */
  @IsOptional()
  @ValidateBy({
    name: 'isSingleUseStore',
    validator: {
      validate: (value: unknown) => isSingleUseStore(value),
      defaultMessage: () => 'singleUseStore must be an object with a claim(tokenId, expiresAtMs) method',
    },
  })
  singleUseStore?: SingleUseStore;
}

/** What the codec runs on: the options with their defaults, the key parsed into a ring. */
export type ResolvedRequestStateOptions = Readonly<Omit<RequestStateOptions, 'requestStateKey'>> & {
  readonly keyRing: KeyRing;
};

/** The defaults of the options that have one, read off the class (their one definition). */
export const REQUEST_STATE_DEFAULTS = (() => {
  const d = new RequestStateOptions();
  return Object.freeze({
    encryptRequestState: d.encryptRequestState,
    requestStateLifetime: d.requestStateLifetime,
    maxFlowLifetime: d.maxFlowLifetime,
    maxRequestStateBytes: d.maxRequestStateBytes,
    singleUseRequestState: d.singleUseRequestState,
  });
})();

const resolvedOptions = new WeakSet<object>();
/** requestState options that passed every rule here (validated alone, or as a validated server's part). */
const passed = new WeakSet<object>();

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
  const problems = crossProblems(options);
  if (problems.length === 0) checked.add(options);
  return problems;
}

/** Options objects these rules passed (the server's, validated whole with them as its checks). */
const checked = new WeakSet<object>();

/**
 * True for the frozen result of validateOptions over a class extending RequestStateOptions with
 * requestStateProblems among its checks (ContextServerOptions): its requestState part needs no second pass.
 */
function requestStatePassed(value: object): boolean {
  return checked.has(value) && isValidatedOptions(value, value.constructor as new () => object);
}

function crossProblems(options: Readonly<RequestStateOptions>): OptionProblem[] {
  const problems: OptionProblem[] = [];
  if (options.requestStateKey !== undefined) {
    try {
      KeyRing.fromOption(options.requestStateKey);
    } catch (error) {
      if (!(error instanceof FrameworkError)) throw error;
      problems.push(keyProblem(error));
    }
  }
  const lifetime = options.requestStateLifetime;
  const flowLifetime = options.maxFlowLifetime;
  if (Number.isInteger(lifetime) && Number.isInteger(flowLifetime) && flowLifetime < lifetime) {
    problems.push({
      field: 'maxFlowLifetime',
      message: `${flowLifetime}s must be at least requestStateLifetime (${lifetime}s)`,
    });
  }
  if (options.singleUseStore !== undefined && options.singleUseRequestState !== true) {
    problems.push({
      field: 'singleUseStore',
      message: 'is set but singleUseRequestState is not true; set singleUseRequestState: true to use it',
    });
  }
  return problems;
}

/**
 * Validate, default and freeze. Only the requestState keys of `input` are read, so the server's
 * (already validated) options object can be passed as is; options that already passed these rules
 * (a RequestStateModule's) are not checked again. Throws FrameworkError('OMC_INVALID_OPTIONS')
 * naming every bad option.
 */
export function resolveRequestStateOptions(
  input: Partial<RequestStateOptions> = {},
  deps: { random?: (n: number) => Buffer } = {},
): Readonly<ResolvedRequestStateOptions> {
  const options = passed.has(input)
    ? (input as Readonly<RequestStateOptions>)
    : validateRequestStateOptions(pickRequestStateOptions(input));
  return resolved(options, deps.random);
}

/** What an app fills in when its requestState options leave them out. */
export interface RequestStateFallbacks {
  /** The server's name (validated with the same rules as `requestStateAudience`). */
  readonly audience: string;
  /** The shared stores' single-use store, used when `singleUseRequestState` is on. */
  readonly singleUseStore?: SingleUseStore;
}

/**
 * An app's codec options: its module's requestState options, with the server's name as the audience and
 * the shared single-use store when they are left out. Validated once: options that passed these rules
 * (every module's) are taken as they are when the fallbacks pass too; anything else gets the full check.
 */
export function resolveAppRequestStateOptions(
  options: Readonly<RequestStateOptions>,
  fallbacks: RequestStateFallbacks,
  deps: { random?: (n: number) => Buffer } = {},
): Readonly<ResolvedRequestStateOptions> {
  const audience = options.requestStateAudience ?? fallbacks.audience;
  const singleUseStore =
    options.singleUseStore ?? (options.singleUseRequestState ? fallbacks.singleUseStore : undefined);
  const fallbacksPass =
    typeof audience === 'string' &&
    audience.length > 0 &&
    audience.length <= MAX_AUDIENCE_LENGTH &&
    (singleUseStore === undefined || isSingleUseStore(singleUseStore));
  if (passed.has(options) && fallbacksPass) {
    return resolved({ ...options, requestStateAudience: audience, singleUseStore }, deps.random);
  }
  const input = pickRequestStateOptions({ ...options, requestStateAudience: audience, singleUseStore });
  return resolved(validateRequestStateOptions(input), deps.random);
}

function resolved(
  options: Readonly<RequestStateOptions>,
  random: ((n: number) => Buffer) | undefined,
): Readonly<ResolvedRequestStateOptions> {
  const result: ResolvedRequestStateOptions = Object.freeze({
    keyRing: KeyRing.fromOption(options.requestStateKey, random),
    encryptRequestState: options.encryptRequestState,
    requestStateLifetime: options.requestStateLifetime,
    maxFlowLifetime: options.maxFlowLifetime,
    maxRequestStateBytes: options.maxRequestStateBytes,
    requestStateAudience: options.requestStateAudience,
    singleUseRequestState: options.singleUseRequestState,
    singleUseStore: options.singleUseStore,
  });
  resolvedOptions.add(result);
  return result;
}

/** Validates and freezes requestState options alone: unknown keys refused, every rule and cross-check applied. */
export function validateRequestStateOptions(input: unknown): Readonly<RequestStateOptions> {
  const options = validateOptions(RequestStateOptions, input, {
    label: 'requestState options',
    checks: requestStateProblems,
  });
  passed.add(options);
  return options;
}

/**
 * The requestState part of a larger options object, validated and frozen: taken as it is when the whole
 * object already passed these rules (the server's options), validated alone otherwise.
 */
export function requestStatePartOf(options: Partial<RequestStateOptions>): Readonly<RequestStateOptions> {
  const own = pickRequestStateOptions(options);
  if (!requestStatePassed(options)) return validateRequestStateOptions(own);
  const part = Object.freeze(Object.assign(new RequestStateOptions(), own));
  passed.add(part);
  return part;
}

/** The requestState options among a larger set (the server's), the others left out. */
export function pickRequestStateOptions(input: Partial<RequestStateOptions>): Partial<RequestStateOptions> {
  const own: Record<string, unknown> = {};
  for (const name of knownOptionKeys(RequestStateOptions)) {
    const value = (input as Record<string, unknown>)[name];
    if (value !== undefined) own[name] = value;
  }
  return own;
}

/**
 * Client-side errors: typed so callers (and the test kit) can tell why a call stopped. The errors
 * a server answers with are in server-errors.ts.
 */
import { FrameworkError } from '../errors/framework-error';

/** A call still asked for input after `maxInputRounds` answered rounds. */
export class MaxInputRoundsError extends FrameworkError {
  constructor(
    readonly method: string,
    readonly round: number,
    readonly pendingKeys: readonly string[],
  ) {
    const what = pendingKeys.length ? `input for ${pendingKeys.join(', ')}` : 'another requestState-only round';
    super(
      'OMC_CLIENT_MAX_ROUNDS',
      `${method} gave up in round ${round}: the server still asks for ${what} after ${round - 1} answered rounds (maxInputRounds). Raise maxInputRounds or check the server's flow.`,
    );
  }
}

/** The server asked for a kind of input this client has no handler for. */
export class MissingInputHandlerError extends FrameworkError {
  constructor(
    readonly inputMethod: string,
    readonly handler: string,
    readonly key?: string,
  ) {
    super(
      'OMC_CLIENT_NO_HANDLER',
      `The server asked for ${inputMethod}${key ? ` (key "${key}")` : ''} but the client has no \`${handler}\` handler. Pass \`${handler}\` in ContextClientOptions (it also declares the capability).`,
    );
  }
}

/** A request that took longer than `requestTimeoutMs` (it was cancelled). */
export class RequestTimeoutError extends FrameworkError {
  constructor(
    readonly method: string,
    readonly timeoutMs: number,
  ) {
    super('OMC_CLIENT_TIMEOUT', `${method} got no response within ${timeoutMs} ms; it was cancelled.`);
  }
}

/** An HTTP answer that carried no JSON-RPC message. */
export class HttpStatusError extends FrameworkError {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super('OMC_TRANSPORT', `HTTP ${status}${body ? `: ${body.slice(0, 200)}` : ''}`);
  }
}

/**
 * The server no longer knows this client's legacy session (HTTP 404: evicted, expired, restarted).
 * A request the server never ran is retried on a new session without the caller noticing; what
 * lived on the lost session (a request whose stream was cut, an ask being answered, a resource
 * subscription) ends with this error.
 */
export class SessionLostError extends FrameworkError {
  constructor(
    readonly what: string,
    /** The lost session's id, when the transport learned of the loss (the client then starts a new one). */
    readonly sessionId?: string,
  ) {
    super(
      'OMC_CLIENT_SESSION_LOST',
      `The server lost this client's session (HTTP 404: evicted, expired or restarted); ${what}. The client started a new session for its next requests.`,
    );
  }
}

export function transportError(message: string): FrameworkError {
  return new FrameworkError('OMC_TRANSPORT', message);
}

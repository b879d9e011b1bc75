/**
 * The low-level path: a handler ends the attempt itself with explicit input requests and/or its
 * own state string (throw it, or return it). On 2026-07-28 it becomes an `input_required` result
 * whose state string travels sealed inside the framework's requestState; on legacy revisions the
 * framework sends each request to the client on the held connection and runs the handler again.
 * On the next run the handler reads `ctx.inputResponses` and `ctx.requestState`.
 */
import { FrameworkError } from '../errors/framework-error';
import {
  confirmAsk,
  elicitAsk,
  rootsAsk,
  sampleAsk,
  urlElicitAsk,
  type AskOptions,
  type SampleRequest,
} from './ask-builders';
import type { Ask } from './asks';

export interface InputRequiredInit {
  /** Key → request, built with `InputRequests.*` (the same builders the asks use). */
  inputRequests?: Record<string, Ask<unknown>>;
  /** The handler's own state, echoed back as `ctx.requestState` on the next run. */
  requestState?: string;
}

export class InputRequired extends Error {
  override readonly name = 'InputRequired';
  readonly inputRequests: Readonly<Record<string, Ask<unknown>>>;
  readonly requestState?: string;

  constructor(init: InputRequiredInit) {
    super('The handler needs input from the client before it can complete.');
    const requests = init.inputRequests ?? {};
    const empty = Object.keys(requests).length === 0;
    if (empty && init.requestState === undefined) {
      throw new FrameworkError(
        'OMC_INPUT_REQUIRED_EMPTY',
        'InputRequired needs inputRequests, a requestState string, or both.',
      );
    }
    if (init.requestState !== undefined && typeof init.requestState !== 'string') {
      throw new FrameworkError('OMC_INPUT_REQUIRED_EMPTY', 'InputRequired: requestState must be a string.');
    }
    this.inputRequests = requests;
    this.requestState = init.requestState;
  }
}

/** What the handler reads on the run after an InputRequired. */
export interface LowLevelInput {
  inputResponses?: Record<string, unknown>;
  requestState?: string;
}

/** Input requests for `InputRequired`, built by the same code as `ctx.confirm`, `ctx.elicit`, … */
export const InputRequests = {
  confirm: (message: string): Ask<unknown> => confirmAsk(message),
  elicit: <T extends object>(form: new () => T, message: string): Ask<unknown> => elicitAsk(form, message),
  elicitUrl: (url: string, message: string): Ask<unknown> => urlElicitAsk(url, message, false),
  sample: (request: SampleRequest | string): Ask<unknown> => sampleAsk(request),
  listRoots: (options?: AskOptions): Ask<unknown> => rootsAsk(options),
};

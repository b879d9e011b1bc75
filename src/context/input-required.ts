import type { InputRequest } from '../protocol/types';

/**
 * Thrown into a 2026 handler by an unanswered ask to end the attempt. The engine never trusts
 * it alone: the pending asks recorded on the port decide the outcome, so a handler that catches
 * this by accident still produces `input_required`.
 */
export class InputRequiredSignal extends Error {
  override readonly name = 'InputRequiredSignal';
  constructor() {
    super('This request needs input from the client; the framework answers input_required and replays the handler.');
  }

  /** One shared instance: its stack says nothing useful, and capturing one per round costs. */
  static readonly instance: InputRequiredSignal = Object.freeze(new InputRequiredSignal()) as InputRequiredSignal;
}

export interface PendingAsk {
  key: string;
  fingerprint: string;
  request?: InputRequest;
  /** `JSON.stringify(request)`, made for its fingerprint: the reply reuses it (absent for a reworded request). */
  json?: string;
}

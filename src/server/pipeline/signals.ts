/** What passes through guards, interceptors and filters untouched. */
import { InputRequiredSignal } from '../../context/input-required';
import { InputRequired } from '../../context/input-required-result';

/**
 * Whether an error is the framework's "this round needs input" (an unanswered ask, or a low-level
 * handler's InputRequired): an interceptor rethrows it; filters never see it.
 */
export function isInputRequired(error: unknown): boolean {
  return error instanceof InputRequiredSignal || error instanceof InputRequired;
}

/** A guard said no: the call gets the unknown-name error of its method. */
export class GuardRefusal extends Error {
  override readonly name = 'GuardRefusal';
  static readonly instance: GuardRefusal = Object.freeze(new GuardRefusal('refused by a guard')) as GuardRefusal;
}

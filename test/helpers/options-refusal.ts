/** The message of the OMC_INVALID_OPTIONS error `run` throws; the test fails if it throws nothing or another error. */
import { FrameworkError } from '../../src';

export function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(FrameworkError);
    expect((error as FrameworkError).code).toBe('OMC_INVALID_OPTIONS');
    return (error as FrameworkError).message;
  }
  throw new Error('expected the options to be refused');
}

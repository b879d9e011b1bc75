import { FrameworkError } from '../errors/framework-error';

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** Tool (and prompt) names: 1–128 of [A-Za-z0-9_.-] so every client can address them. */
export function assertValidName(kind: string, name: unknown, owner: string): asserts name is string {
  if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
    throw new FrameworkError(
      'OMC_INVALID_NAME',
      `${owner}: ${kind} name ${JSON.stringify(name)} is invalid; use 1–128 characters of [A-Za-z0-9_.-].`,
    );
  }
}

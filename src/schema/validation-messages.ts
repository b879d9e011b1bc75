import type { ValidationError } from 'class-validator';

/** Enough to act on; a 10 000-key object should not produce a 10 000-line answer. */
export const MAX_REPORTED_PROBLEMS = 20;

/** class-validator's error tree → `address.city must be a string`, `items[0].name should not be empty`. */
export function flattenValidationErrors(errors: readonly ValidationError[]): string[] {
  const messages: string[] = [];
  const pending = errors.map((error) => ({ error, parent: '' }));
  while (pending.length) {
    const { error, parent } = pending.shift()!;
    const property = error.property ?? '';
    const path = !parent ? property : /^\d+$/.test(property) ? `${parent}[${property}]` : `${parent}.${property}`;
    for (const [constraint, message] of Object.entries(error.constraints ?? {})) {
      messages.push(reword(constraint, message, property, path));
    }
    for (const child of error.children ?? []) pending.push({ error: child, parent: path });
  }
  return capped(messages);
}

export function capped(messages: string[]): string[] {
  if (messages.length <= MAX_REPORTED_PROBLEMS) return messages;
  const rest = messages.length - MAX_REPORTED_PROBLEMS;
  return [...messages.slice(0, MAX_REPORTED_PROBLEMS), `…and ${rest} more problem${rest === 1 ? '' : 's'}`];
}

/** class-validator words messages after the bare property name; put the full path in its place. */
function reword(constraint: string, message: string, property: string, path: string): string {
  if (constraint === 'whitelistValidation') return `property ${path} should not exist`;
  if (!property || property === path) return message;
  for (const prefix of ['', 'each value in ', 'nested property ']) {
    if (message.startsWith(`${prefix}${property} `))
      return `${prefix}${path}${message.slice(prefix.length + property.length)}`;
  }
  return `${path}: ${message}`;
}

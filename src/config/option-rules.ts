/** class-validator rules the options classes share (function hooks, objects with methods). */
import { ValidateBy } from 'class-validator';

/** The option is a function (a handler or hook). */
export const IsFunction = () =>
  ValidateBy({
    name: 'isFunction',
    validator: {
      validate: (v: unknown) => typeof v === 'function',
      defaultMessage: () => '$property must be a function',
    },
  });

/** The option is an object with these methods (a logger, a store). */
export const HasMethods = (...methods: string[]) =>
  ValidateBy({
    name: 'hasMethods',
    validator: {
      validate: (v: unknown) =>
        typeof v === 'object' &&
        v !== null &&
        methods.every((m) => typeof (v as Record<string, unknown>)[m] === 'function'),
      defaultMessage: () => `$property must be an object with ${methods.map((m) => `${m}()`).join(' and ')}`,
    },
  });

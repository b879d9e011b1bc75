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

/** Classes (checked for the method at bootstrap, which names the culprit) or instances with `method`. */
export const ArePipelineRefs = (method: string) =>
  ValidateBy({
    name: 'arePipelineRefs',
    validator: {
      validate: (v: unknown) =>
        Array.isArray(v) &&
        v.every(
          (r) =>
            typeof r === 'function' ||
            (typeof r === 'object' && r !== null && typeof (r as Record<string, unknown>)[method] === 'function'),
        ),
      defaultMessage: () => `must list classes or instances with a ${method}() method`,
    },
  });

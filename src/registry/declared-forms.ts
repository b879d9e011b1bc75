/** The `forms` a handler declares for `ctx.elicit`: each one compiled (form subset + validator) at bootstrap. */
import { FrameworkError } from '../errors/framework-error';
import { createDtoValidator, dtoToElicitationSchema } from '../schema';

const NONE: ReadonlySet<Function> = Object.freeze(new Set<Function>());

export function declaredForms(owner: string, forms: unknown): ReadonlySet<Function> {
  if (forms === undefined) return NONE;
  if (!Array.isArray(forms)) {
    throw new FrameworkError(
      'OMC_INVALID_DEFINITION',
      `${owner}: \`forms\` must be an array of form classes, e.g. forms: [BookingForm].`,
    );
  }
  const set = new Set<Function>();
  forms.forEach((form: unknown, i) => {
    if (typeof form !== 'function' || form.prototype === undefined) {
      throw new FrameworkError(
        'OMC_INVALID_DEFINITION',
        `${owner}: forms[${i}] is not a class; list the DTO classes passed to ctx.elicit.`,
      );
    }
    try {
      dtoToElicitationSchema(form);
      createDtoValidator(form as new () => object);
    } catch (error) {
      if (error instanceof FrameworkError)
        throw new FrameworkError(error.code, `${owner}: form ${form.name}: ${error.detail}`, { cause: error });
      throw error;
    }
    set.add(form);
  });
  return Object.freeze(set);
}

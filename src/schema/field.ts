import { registerDecorator, type ValidationArguments } from 'class-validator';
import { Type } from 'class-transformer';
import { FIELD_VALIDATOR_NAME } from './dto-properties';
import { writeFieldOptions, type FieldOptions } from './field-metadata';
import { fieldValueProblems } from './field-value-check';

export { getFieldOptions, type FieldOptions, type FieldTypeThunk } from './field-metadata';

const PRIMITIVES: readonly Function[] = [String, Number, Boolean];

/**
 * Adds the JSON-Schema facts class-validator cannot express (description, default, enum titles…).
 * `@Field` alone also makes the property part of the DTO: it is whitelisted for the validator and its
 * value is checked against the schema it advertises. `type` doubles as class-transformer's `@Type`
 * for classes, so `@Field({ type: () => Address })` is enough to build nested instances.
 */
export function Field(options: FieldOptions = {}): PropertyDecorator {
  return (prototype: object, key: string | symbol) => {
    if (typeof key !== 'string') return;
    writeFieldOptions(prototype.constructor, key, options);
    registerDecorator({
      name: FIELD_VALIDATOR_NAME,
      target: prototype.constructor,
      propertyName: key,
      validator: {
        validate: (value: unknown, args?: ValidationArguments) => problemsOf(value, args).length === 0,
        defaultMessage: (args?: ValidationArguments) => problemsOf(args?.value, args).join('; '),
      },
    });
    const { type } = options;
    if (type) {
      // Resolved lazily (the class may be declared later); primitives are left untouched: no implicit conversion.
      Type(() => {
        const resolved = type();
        return PRIMITIVES.includes(resolved) ? Object : resolved;
      })(prototype, key);
    }
  };
}

function problemsOf(value: unknown, args: ValidationArguments | undefined): string[] {
  if (!args) return [];
  return fieldValueProblems((args.object as object).constructor, args.property, value);
}

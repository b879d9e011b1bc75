import { Type } from 'class-transformer';
import {
  IsDate,
  IsInt,
  IsOptional,
  IsString,
  Validate,
  ValidateNested,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { FrameworkError } from '../../../src/errors/framework-error';
import { Field, dtoToJsonSchema } from '../../../src/schema';

@ValidatorConstraint({ name: 'isEven' })
class IsEven implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'number' && value % 2 === 0;
  }
}

class Child {
  @IsString() name!: string;
}

class UntypedObject {
  @Field({ description: 'anything' }) payload!: Record<string, unknown>;
}
class OnlyCustom {
  @Validate(IsEven) even!: unknown;
}
class ArrayOfUnknown {
  @Field() list!: unknown[];
}
class NestedWithoutType {
  @ValidateNested() child!: Child | null;
}
class NestedNotValidated {
  @Field() child!: Child;
}
class ArrayMissingEach {
  @IsString() tags!: string[];
}
class ConflictingTypes {
  @IsString() @IsInt() both!: string;
}
class DateWithoutTransform {
  @IsDate() when!: Date;
}
class UndecoratedFields {
  name = 'x';
  size = 1;
}
class PolymorphicChild {
  @ValidateNested()
  @Type(() => Child, { discriminator: { property: 'kind', subTypes: [{ name: 'child', value: Child }] } })
  child!: Child;
}

describe('dtoToJsonSchema refuses what it cannot express', () => {
  it.each([
    [UntypedObject, 'UntypedObject.payload', /type cannot be told/],
    [OnlyCustom, 'OnlyCustom.even', /not understood: @IsEven/],
    [ArrayOfUnknown, 'ArrayOfUnknown.list', /say what the items are/],
    [NestedWithoutType, 'NestedWithoutType.child', /@Type\(\(\) => TheDto\)/],
    [NestedNotValidated, 'NestedNotValidated.child', /@ValidateNested\(\) and @Type\(\(\) => Child\)/],
    [ArrayMissingEach, 'ArrayMissingEach.tags', /each: true/],
    [ConflictingTypes, 'ConflictingTypes.both', /integer.*string|string.*integer/],
    [DateWithoutTransform, 'DateWithoutTransform.when', /@Type\(\(\) => Date\)/],
    [UndecoratedFields, 'UndecoratedFields.name', /no decorated property/],
    [PolymorphicChild, 'PolymorphicChild.child', /discriminator/],
  ])('%p', (dto, where, why) => {
    let caught: unknown;
    try {
      dtoToJsonSchema(dto);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(FrameworkError);
    expect((caught as FrameworkError).code).toBe('OMC_SCHEMA_UNSUPPORTED');
    expect((caught as Error).message).toContain(where);
    expect((caught as Error).message).toMatch(why);
  });

  it('ignores a custom validator once another decorator fixes the type (the validator still runs it)', () => {
    class EvenCount {
      @IsInt() @Validate(IsEven) count!: number;
    }
    expect(dtoToJsonSchema(EvenCount).properties).toEqual({ count: { type: 'integer' } });
  });

  it('describes a Date received as an ISO string', () => {
    class When {
      @IsDate() @Type(() => Date) at!: Date;
    }
    expect(dtoToJsonSchema(When).properties).toEqual({ at: { type: 'string', format: 'date-time' } });
  });
});

test('a property with no design:type (reflect-metadata loaded after the class) says to import it first', () => {
  // What tsc emits when Reflect.metadata does not exist yet: the decorator, and no design:type.
  class LateReflect {
    name?: string;
  }
  IsOptional()(LateReflect.prototype, 'name');
  expect(() => dtoToJsonSchema(LateReflect)).toThrow(
    /LateReflect\.name: its type cannot be told.*no design:type was recorded for it: import 'reflect-metadata' first/,
  );
});

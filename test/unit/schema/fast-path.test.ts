/** The fast accept path never accepts what class-transformer + class-validator refuse, and builds the same instance. */
import fc from 'fast-check';
import { plainToInstance, Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
  validateSync,
} from 'class-validator';
import { createDtoValidator, dtoToJsonSchema } from '../../../src/schema';
import { fastAcceptFor } from '../../../src/schema/fast-path';
import { flatSchemaCheck } from '../../../src/schema/flat-schema-check';
import { compileJsonSchema } from '../../../src/schema/json-schema-validator';

class Flat {
  @IsString() @MaxLength(5) name!: string;
  @IsInt() @Min(0) @Max(10) count!: number;
  @IsOptional() @IsBoolean() flag?: boolean;
  @IsOptional() @IsIn(['a', 'b']) pick?: string;
  @IsOptional() @IsString() note = 'none';
}
class WithMinLength {
  @IsString() @MinLength(2) name!: string;
}
class Inner {
  @IsString() x!: string;
}
class Nested {
  @ValidateNested() @Type(() => Inner) inner!: Inner;
}

const slow = (dto: new () => object, input: unknown) => {
  const instance = plainToInstance(dto, input, { enableImplicitConversion: false, exposeDefaultValues: true });
  return {
    ok: validateSync(instance, { forbidUnknownValues: true, whitelist: true, forbidNonWhitelisted: true }).length === 0,
    instance,
  };
};

test('only flat DTOs with exactly-expressed rules get a fast path', () => {
  expect(fastAcceptFor(Flat, dtoToJsonSchema(Flat))).toBeDefined();
  expect(fastAcceptFor(WithMinLength, dtoToJsonSchema(WithMinLength))).toBeUndefined();
  expect(fastAcceptFor(Nested, dtoToJsonSchema(Nested))).toBeUndefined();
});

test('fast acceptance implies slow acceptance and the same instance (fast-check)', () => {
  const fast = fastAcceptFor(Flat, dtoToJsonSchema(Flat))!;
  const validate = createDtoValidator(Flat);
  const value = fc.oneof(
    fc.string({ maxLength: 8 }),
    fc.integer({ min: -3, max: 13 }),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constantFrom('a', 'b', 1, '\uFE0F'),
  );
  const input = fc.dictionary(fc.constantFrom('name', 'count', 'flag', 'pick', 'note', 'extra'), value);
  fc.assert(
    fc.property(input, (plain) => {
      const viaSlow = slow(Flat, plain);
      if (fast(plain)) {
        expect(viaSlow.ok).toBe(true);
        const viaValidator = validate(plain);
        expect(viaValidator.ok).toBe(true);
        expect({ ...(viaValidator as { value: object }).value }).toEqual({ ...viaSlow.instance });
        expect((viaValidator as { value: object }).value).toBeInstanceOf(Flat);
      }
      // Whatever the path, the validator's decision is class-validator's.
      expect(validate(plain).ok).toBe(viaSlow.ok);
    }),
    { numRuns: 3000 },
  );
});

test('the direct check of a flat schema decides exactly as Ajv does (fast-check)', () => {
  const schema = dtoToJsonSchema(Flat);
  const direct = flatSchemaCheck(schema)!;
  expect(direct).toBeDefined();
  const ajv = compileJsonSchema(schema);
  const value = fc.oneof(
    fc.string({ maxLength: 8 }),
    fc.string({ unit: 'grapheme', maxLength: 7 }),
    fc.integer({ min: -3, max: 13 }),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constantFrom('a', 'b', 1, 0, -0, 10, 11, 'abcde', '😀😀😀😀😀', '😀😀😀😀😀😀'),
  );
  const input = fc.dictionary(fc.constantFrom('name', 'count', 'flag', 'pick', 'note', 'extra', '__proto__'), value);
  fc.assert(
    fc.property(input, (plain) => {
      expect(direct(plain)).toBe(ajv(plain).ok);
    }),
    { numRuns: 3000 },
  );
});

test('schemas with a keyword the direct check does not read are left to Ajv', () => {
  const base = { type: 'object', additionalProperties: false } as const;
  expect(flatSchemaCheck({ ...base, properties: { a: { type: 'string', pattern: '^x' } } })).toBeUndefined();
  expect(flatSchemaCheck({ ...base, properties: { a: { type: ['string', 'null'] } } })).toBeUndefined();
  expect(flatSchemaCheck({ ...base, properties: { a: { enum: [{ x: 1 }] } } })).toBeUndefined();
  expect(flatSchemaCheck({ ...base, properties: {}, minProperties: 1 })).toBeUndefined();
  expect(flatSchemaCheck({ type: 'object', properties: {} })).toBeUndefined();
  expect(flatSchemaCheck({ ...base, properties: { a: { type: 'string' } }, required: ['b'] })).toBeUndefined();
});

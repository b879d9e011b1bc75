/**
 * Issue 11: a nested DTO property takes only a plain object and a list only an array (class-validator
 * alone let `inner: []` skip the nested required fields); raw schemas in draft-07 or 2020-12.
 */
import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsArray, IsOptional, IsString, ValidateNested } from 'class-validator';
import { FrameworkError } from '../../../src/errors/framework-error';
import { compileJsonSchema, createDtoValidator, type JsonSchemaObject } from '../../../src/schema';
import { schemaDialect } from '../../../src/schema/json-schema-validator';

class Inner {
  @IsString() required!: string;
}
class Outer {
  @ValidateNested() @Type(() => Inner) inner!: Inner;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Inner) list?: Inner[];
  @IsOptional() @IsArray() @IsString({ each: true }) tags?: string[];
}
class Deep {
  @ValidateNested() @Type(() => Outer) outer!: Outer;
}

const validate = createDtoValidator(Outer);

describe('nested DTO shapes', () => {
  test.each([[[]], [[{ required: 'x' }]], ['text'], [5], [true]])('inner: %p is refused (not an object)', (inner) => {
    const r = validate({ inner });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.join(' ')).toMatch(/inner must be an object/);
  });

  test('a list of DTOs takes only an array, each element an object', () => {
    for (const list of [{ required: 'x' }, 'x', 3]) {
      const r = validate({ inner: { required: 'ok' }, list });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.errors.join(' ')).toMatch(/list must be an array/);
    }
    const bad = validate({ inner: { required: 'ok' }, list: [{ required: 'a' }, [], 'b'] });
    expect(bad.ok).toBe(false);
    if (!bad.ok)
      expect(bad.errors.join(' ')).toMatch(
        /list\[1\] must be an object.*list\[2\] must be an object|list\[1\] must be an object/,
      );
  });

  test('the same at depth', () => {
    const r = createDtoValidator(Deep)({ outer: { inner: [] } });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.join(' ')).toMatch(/outer\.inner must be an object/);
  });

  test('the root must be an object', () => {
    for (const input of [[], 'x', 1, null]) expect(validate(input).ok).toBe(false);
  });

  test('valid input still passes, with nested instances', () => {
    const r = validate({ inner: { required: 'ok' }, list: [{ required: 'a' }], tags: ['t'] });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.value.inner).toBeInstanceOf(Inner);
  });
});

describe('raw schema dialects', () => {
  const draft07 = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      n: { type: 'integer', exclusiveMinimum: 0 },
      tuple: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] },
    },
    required: ['n'],
    definitions: { x: { type: 'string' } },
  } as unknown as JsonSchemaObject;

  test('draft-07 compiles and validates with draft-07 semantics (items as a tuple)', () => {
    const check = compileJsonSchema(draft07);
    expect(check({ n: 1, tuple: ['a', 2] }).ok).toBe(true);
    expect(check({ n: 1, tuple: ['a', 'b'] }).ok).toBe(false);
    expect(check({ n: 0 }).ok).toBe(false);
  });

  test.each([
    ['https://json-schema.org/draft/2020-12/schema', '2020-12'],
    ['https://json-schema.org/draft/2020-12/schema#', '2020-12'],
    ['http://json-schema.org/draft-07/schema#', 'draft-07'],
    ['http://json-schema.org/draft-07/schema', 'draft-07'],
  ])('%s is %s', ($schema, dialect) => {
    expect(schemaDialect({ $schema, type: 'object' } as JsonSchemaObject)).toBe(dialect);
  });

  test.each(['http://json-schema.org/draft-04/schema#', 'https://example.com/my-dialect', 7])('$schema %p is refused with a clear error', ($schema) => {
    expect(() => compileJsonSchema({ $schema, type: 'object' } as unknown as JsonSchemaObject)).toThrow(FrameworkError);
    expect(() => compileJsonSchema({ $schema, type: 'object' } as unknown as JsonSchemaObject)).toThrow(
      /not a supported dialect/,
    );
  });
});

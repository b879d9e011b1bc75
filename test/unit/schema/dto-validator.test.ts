import { Type } from 'class-transformer';
import { IsArray, IsEmail, IsIn, IsInt, IsOptional, IsString, Min, ValidateNested } from 'class-validator';
import { Field, createDtoValidator } from '../../../src/schema';

class Address {
  @IsString() city!: string;
  @Field({ default: 'NL' }) @IsString() country!: string;
}

class Person {
  @IsString() name!: string;
  @IsOptional() @IsEmail() email?: string;
  @IsInt() @Min(0) age = 18;
  @ValidateNested() @Type(() => Address) address!: Address;
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => Address) previous?: Address[];
  @Field({ default: 'en' }) @IsIn(['en', 'fr']) language!: string;
  @Field({ description: 'described only by @Field' }) nickname!: string;
  @IsOptional() @Field({ type: () => Number }) scores?: number[];
}

const validate = createDtoValidator(Person);
const valid = { name: 'Ada', address: { city: 'Delft' }, nickname: 'ada' };

function errorsOf(input: unknown): string[] {
  const result = validate(input);
  if (result.ok) throw new Error(`expected a failure for ${JSON.stringify(input)}`);
  return result.errors;
}

describe('createDtoValidator', () => {
  it('is built once per class', () => {
    expect(createDtoValidator(Person)).toBe(validate);
  });

  it('returns a DTO instance with initialiser and @Field defaults applied', () => {
    const result = validate(valid);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toBeInstanceOf(Person);
    expect(result.value.address).toBeInstanceOf(Address);
    expect(result.value).toMatchObject({ age: 18, language: 'en', address: { city: 'Delft', country: 'NL' } });
    expect(result.value.email).toBeUndefined();
  });

  it('keeps given values over defaults and accepts arrays of primitives typed by @Field', () => {
    const result = validate({ ...valid, age: 40, language: 'fr', scores: [1, 2.5] });
    expect(result.ok && result.value).toMatchObject({ age: 40, language: 'fr', scores: [1, 2.5] });
  });

  it('does not convert types implicitly', () => {
    expect(errorsOf({ ...valid, age: '40' })).toContain('age must be an integer number');
    expect(errorsOf({ ...valid, scores: ['1'] }).join()).toMatch(/^scores\[0\] must be number$/);
  });

  it('words nested and array errors with their path', () => {
    expect(errorsOf({ ...valid, address: { city: 5 } })).toEqual(['address.city must be a string']);
    expect(errorsOf({ ...valid, previous: [{ city: 'A' }, { city: 1 }] })).toEqual([
      'previous[1].city must be a string',
    ]);
  });

  it('reports missing required fields and unknown keys, also nested', () => {
    const errors = errorsOf({ address: { city: 'x', zip: '1' }, nickname: 'n', extra: true });
    expect(errors.sort()).toEqual([
      'name must be a string',
      'property address.zip should not exist',
      'property extra should not exist',
    ]);
  });

  it('checks a property described only by @Field against its schema', () => {
    expect(errorsOf({ ...valid, nickname: 7 })).toEqual(['nickname must be string']);
    expect(errorsOf({ name: 'Ada', address: { city: 'Delft' } })).toEqual(['nickname is required']);
  });

  it.each([
    [null, 'input must be an object, got null'],
    [[1, 2], 'input must be an object, got an array'],
    ['text', 'input must be an object, got string'],
    [42, 'input must be an object, got number'],
    [undefined, 'input must be an object, got undefined'],
  ])('refuses non-object input %p without throwing', (input, message) => {
    expect(errorsOf(input)).toEqual([message]);
  });
});

describe('createDtoValidator under hostile input', () => {
  afterEach(() => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reports prototype keys instead of following them', () => {
    const hostile = JSON.parse(
      '{"name":"x","nickname":"n","address":{"city":"c","__proto__":{"polluted":1}},"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}',
    );
    expect(errorsOf(hostile)).toEqual([
      'property __proto__ should not exist',
      'property constructor should not exist',
      'property address.__proto__ should not exist',
    ]);
  });

  it('answers a 10 000-key object with a bounded list of problems', () => {
    const huge: Record<string, unknown> = { ...valid };
    for (let i = 0; i < 10_000; i++) huge[`k${i}`] = i;
    const errors = errorsOf(huge);
    expect(errors).toHaveLength(21);
    expect(errors[0]).toBe('property k0 should not exist');
    expect(errors[20]).toBe('…and 9980 more problems');
  });

  it('refuses absurdly deep nesting', () => {
    let deep: Record<string, unknown> = {};
    const root = { ...valid, address: deep };
    for (let i = 0; i < 10_000; i++) deep = deep.next = {} as Record<string, unknown>;
    expect(errorsOf(root)).toEqual(['input is nested deeper than 64 levels']);
  });

  it.each([
    [{ ...valid, name: ['Ada'] }, 'name must be a string'],
    [{ ...valid, address: 'Delft' }, 'nested property address must be either object or array'],
    [{ ...valid, address: null }, 'nested property address must be either object or array'],
    [{ ...valid, previous: {} }, 'previous must be an array'],
  ])('reports wrong types readably: %p', (input, message) => {
    expect(errorsOf(input)).toContain(message);
  });
});

describe('required nested DTOs', () => {
  class Home {
    @IsString() city!: string;
  }
  class Person {
    @IsString() name!: string;
    @ValidateNested() @Type(() => Home) home!: Home;
    @IsOptional() @ValidateNested() @Type(() => Home) office?: Home;
  }
  const validate = createDtoValidator(Person);

  test('an absent required nested object is reported; an optional one is not', () => {
    expect(validate({ name: 'x' })).toEqual({ ok: false, errors: ['home is required'] });
    expect(validate({ name: 'x', home: null })).toMatchObject({
      ok: false,
      errors: expect.arrayContaining(['home is required']),
    });
    expect(validate({ name: 'x', home: { city: 'Oslo' } })).toMatchObject({ ok: true });
    expect(validate({ name: 'x', home: {} })).toMatchObject({ ok: false, errors: ['home.city must be a string'] });
  });
});

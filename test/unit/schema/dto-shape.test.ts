/**
 * DTOs of one shape are checked once (issue 38): the facts, outline and flat schema of a DTO are shared
 * with every later DTO whose decorator signature is the same (schema/dto-shape-key.ts). Exactly as
 * strict as checking each: a DTO that differs in anything the check reads gets its own check, and a
 * faulty one still fails. Counted, not timed.
 */
import 'reflect-metadata';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  Validate,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { FrameworkError } from '../../../src/errors/framework-error';
import { checkDto, createDtoValidator, dtoToJsonSchema } from '../../../src/schema';
import * as propertyFacts from '../../../src/schema/property-facts';

type Decorators = Record<string, [Function, PropertyDecorator[]]>;

/** A fresh class with these decorators applied as tsc emits them (design:type included), and a field initialiser. */
function dto(properties: Decorators, init?: (self: Record<string, unknown>) => void): Function {
  const Dto = class {
    constructor() {
      init?.(this as unknown as Record<string, unknown>);
    }
  };
  for (const [key, [type, decorators]] of Object.entries(properties)) {
    for (const d of decorators) d(Dto.prototype, key);
    Reflect.defineMetadata('design:type', type, Dto.prototype, key);
  }
  return Dto;
}

const base = (): Decorators => ({
  text: [String, [IsString(), MaxLength(200)]],
  count: [Number, [IsOptional(), IsInt(), Min(0)]],
  label: [String, [IsOptional(), IsString()]],
});

describe('DTOs of one shape', () => {
  afterEach(() => jest.restoreAllMocks());

  it('are read once: the rest share the facts and the schema, each keeps its own validator', () => {
    const described = jest.spyOn(propertyFacts, 'describeDtoProperties');
    const dtos = Array.from({ length: 200 }, () => dto(base()));
    for (const d of dtos) expect([...checkDto(d).names]).toEqual(['text', 'count', 'label']);
    expect(described).toHaveBeenCalledTimes(1);
    // A DTO of a known shape keeps no entry of its own: asked again, its shape answers, nothing is read.
    expect(checkDto(dtos[7]!)).toBe(checkDto(dtos[8]!));
    expect(described).toHaveBeenCalledTimes(1);
    const schema = dtoToJsonSchema(dtos[0]!);
    expect(dtoToJsonSchema(dtos[199]!)).toBe(schema);
    expect(schema).toEqual({
      type: 'object',
      properties: {
        text: { type: 'string', maxLength: 200 },
        count: { type: 'integer', minimum: 0 },
        label: { type: 'string' },
      },
      required: ['text'],
      additionalProperties: false,
    });
    const a = createDtoValidator(dtos[0] as new () => object)({ text: 'hi' });
    const b = createDtoValidator(dtos[1] as new () => object)({ text: 'hi', count: 2 });
    expect(a.ok && a.value).toBeInstanceOf(dtos[0]!);
    expect(b.ok && b.value).toBeInstanceOf(dtos[1]!);
    expect(createDtoValidator(dtos[2] as new () => object)({ text: 'hi', count: -1 }).ok).toBe(false);
  });

  it('equal constraint arrays and regular expressions count by content', () => {
    const described = jest.spyOn(propertyFacts, 'describeDtoProperties');
    const shape = () => ({ pick: [String, [IsIn(['a', 'b'])]], code: [String, [Matches(/^x+$/)]] }) as Decorators;
    const first = dto(shape());
    const second = dto(shape());
    checkDto(first);
    checkDto(second);
    expect(described).toHaveBeenCalledTimes(1);
    expect(dtoToJsonSchema(second)).toBe(dtoToJsonSchema(first));
  });

  // Each differs from `base` in one input the check reads; none may get base's facts.
  const variants: [string, () => Function][] = [
    ['a constraint value', () => dto({ ...base(), text: [String, [IsString(), MaxLength(201)]] })],
    ['a design:type', () => dto({ ...base(), label: [Number, [IsOptional(), IsInt()]] })],
    ['a rule', () => dto({ ...base(), count: [Number, [IsInt(), Min(0)]] })],
    [
      'a property name',
      () => {
        const { text, count } = base();
        return dto({ text: text!, count: count!, tag: [String, [IsOptional(), IsString()]] });
      },
    ],
    ['the order of rules', () => dto({ ...base(), text: [String, [MaxLength(200), IsString()]] })],
    ['a field initialiser', () => dto(base(), (self) => (self.count = 3))],
    ['-0 against 0', () => dto({ ...base(), count: [Number, [IsOptional(), IsInt(), Min(-0)]] })],
    ['each', () => dto({ ...base(), label: [String, [IsOptional(), IsString({ each: true })]] })],
  ];

  it.each(variants)('a DTO that differs in %s is checked on its own', (_what, make) => {
    const first = dto(base());
    checkDto(first);
    const described = jest.spyOn(propertyFacts, 'describeDtoProperties');
    const other = make();
    checkDto(other);
    expect(described).toHaveBeenCalledTimes(1);
    expect(dtoToJsonSchema(other)).not.toBe(dtoToJsonSchema(first));
  });

  it('a constraint class with no decorator name is told apart by its own name', () => {
    @ValidatorConstraint({ name: 'first' })
    class First implements ValidatorConstraintInterface {
      validate = () => true;
    }
    @ValidatorConstraint({ name: 'second' })
    class Second implements ValidatorConstraintInterface {
      validate = () => true;
    }
    const described = jest.spyOn(propertyFacts, 'describeDtoProperties');
    const withRule = (rule: Function) =>
      dto({ ...base(), label: [String, [IsOptional(), IsString(), Validate(rule)]] });
    checkDto(withRule(First));
    checkDto(withRule(First));
    expect(described).toHaveBeenCalledTimes(1);
    checkDto(withRule(Second));
    expect(described).toHaveBeenCalledTimes(2);
  });

  it('a DTO that differs by a mistake still fails, after many good ones of the shape it resembles', () => {
    for (let i = 0; i < 20; i++) checkDto(dto(base()));
    const undecorated = dto(base(), (self) => (self.extra = 'left out'));
    expect(() => checkDto(undecorated)).toThrow(/extra: this field has no decorator/);
    const arrayWithoutEach = dto({ ...base(), text: [Array, [IsString(), MaxLength(200)]] });
    expect(() => checkDto(arrayWithoutEach)).toThrow(FrameworkError);
    expect(() => checkDto(arrayWithoutEach)).toThrow(/array but @IsString has no \{ each: true \}/);
    const untyped = dto({ ...base(), label: [Object, [IsOptional()]] });
    expect(() => checkDto(untyped)).toThrow(/label: its type cannot be told/);
  });

  it('a faulty DTO leaves nothing behind for the next one of its shape', () => {
    const faulty = () => dto({ ...base(), label: [Object, [IsOptional()]] });
    expect(() => checkDto(faulty())).toThrow(/its type cannot be told/);
    expect(() => checkDto(faulty())).toThrow(/its type cannot be told/);
  });
});

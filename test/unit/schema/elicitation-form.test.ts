import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { FrameworkError } from '../../../src/errors/framework-error';
import { Field, createDtoValidator, dtoToElicitationSchema } from '../../../src/schema';

/** conformance `elicitation-sep1034-defaults` */
class DefaultsForm {
  @Field({ default: 'John Doe' }) @IsString() name!: string;
  @IsInt() age = 30;
  @Field({ default: 95.5 }) @IsNumber() score!: number;
  @Field({ default: 'active' }) @IsIn(['active', 'inactive', 'pending']) status!: string;
  @Field({ default: true }) @IsBoolean() verified!: boolean;
}

const OPTIONS = ['option1', 'option2', 'option3'];
const VALUES = ['value1', 'value2', 'value3'];

/** conformance `elicitation-sep1330-enums` */
class EnumsForm {
  @IsIn(OPTIONS) untitledSingle!: string;
  @Field({ enumTitles: { value1: 'First Option', value2: 'Second Option', value3: 'Third Option' } })
  @IsIn(VALUES)
  titledSingle!: string;
  @Field({ enumTitles: { opt1: 'Option One', opt2: 'Option Two', opt3: 'Option Three' }, legacyEnumNames: true })
  @IsIn(['opt1', 'opt2', 'opt3'])
  legacyEnum!: string;
  @IsIn(OPTIONS, { each: true }) untitledMulti!: string[];
  @Field({ enumTitles: { value1: 'First Choice', value2: 'Second Choice', value3: 'Third Choice' } })
  @IsIn(VALUES, { each: true })
  titledMulti!: string[];
}

class RichForm {
  @Field({ title: 'E-mail', description: 'Where we write' }) @IsEmail() @MaxLength(80) email!: string;
  @IsOptional() @IsString() @MinLength(2) nickname?: string;
  @Field({ format: 'date' }) @IsString() birthday!: string;
  @IsInt() @Min(0) @Max(120) years!: number;
  @IsOptional() @IsIn(['a', 'b', 'c'], { each: true }) @ArrayMinSize(1) @ArrayMaxSize(2) picks?: string[];
}

describe('dtoToElicitationSchema', () => {
  it('expresses the sep1034 defaults fixture exactly', () => {
    expect(JSON.stringify(dtoToElicitationSchema(DefaultsForm))).toBe(
      JSON.stringify({
        type: 'object',
        properties: {
          name: { type: 'string', default: 'John Doe' },
          age: { type: 'integer', default: 30 },
          score: { type: 'number', default: 95.5 },
          status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
          verified: { type: 'boolean', default: true },
        },
      }),
    );
  });

  it('expresses the sep1330 enums fixture exactly', () => {
    expect(JSON.stringify(dtoToElicitationSchema(EnumsForm))).toBe(
      JSON.stringify({
        type: 'object',
        properties: {
          untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
          titledSingle: {
            type: 'string',
            oneOf: [
              { const: 'value1', title: 'First Option' },
              { const: 'value2', title: 'Second Option' },
              { const: 'value3', title: 'Third Option' },
            ],
          },
          legacyEnum: {
            type: 'string',
            enum: ['opt1', 'opt2', 'opt3'],
            enumNames: ['Option One', 'Option Two', 'Option Three'],
          },
          untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
          titledMulti: {
            type: 'array',
            items: {
              anyOf: [
                { const: 'value1', title: 'First Choice' },
                { const: 'value2', title: 'Second Choice' },
                { const: 'value3', title: 'Third Choice' },
              ],
            },
          },
        },
        required: ['untitledSingle', 'titledSingle', 'legacyEnum', 'untitledMulti', 'titledMulti'],
      }),
    );
  });

  it('carries titles, descriptions, lengths, formats, bounds and item counts', () => {
    expect(JSON.stringify(dtoToElicitationSchema(RichForm))).toBe(
      JSON.stringify({
        type: 'object',
        properties: {
          email: { type: 'string', title: 'E-mail', description: 'Where we write', maxLength: 80, format: 'email' },
          nickname: { type: 'string', minLength: 2 },
          birthday: { type: 'string', format: 'date' },
          years: { type: 'integer', minimum: 0, maximum: 120 },
          picks: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, minItems: 1, maxItems: 2 },
        },
        required: ['email', 'birthday', 'years'],
      }),
    );
  });

  it('validates an answer with the same DTO, defaults filled in', () => {
    const validate = createDtoValidator(DefaultsForm);
    const answer = validate({ name: 'Ada', status: 'pending' });
    expect(answer.ok && { ...answer.value }).toEqual({
      name: 'Ada',
      age: 30,
      score: 95.5,
      status: 'pending',
      verified: true,
    });
    const wrong = createDtoValidator(EnumsForm)({
      untitledSingle: 'option9',
      titledSingle: 'value1',
      legacyEnum: 'opt1',
      untitledMulti: [],
      titledMulti: ['value4'],
    });
    expect(wrong.ok ? [] : wrong.errors).toEqual([
      'untitledSingle must be one of the following values: option1, option2, option3',
      'each value in titledMulti must be one of the following values: value1, value2, value3',
    ]);
  });

  it('is cached per class and frozen', () => {
    const form = dtoToElicitationSchema(RichForm);
    expect(dtoToElicitationSchema(RichForm)).toBe(form);
    expect(Object.isFrozen(form.properties)).toBe(true);
  });
});

class Inner {
  @IsString() x!: string;
}
class NestedForm {
  @ValidateNested() @Type(() => Inner) inner!: Inner;
}
class FreeArrayForm {
  @IsString({ each: true }) words!: string[];
}
class PatternForm {
  @Matches(/^\d+$/) digits!: string;
}
class UuidForm {
  @IsUUID() id!: string;
}
class PositiveForm {
  @IsPositive() amount!: number;
}
class NumberEnumForm {
  @IsIn([1, 2]) level!: number;
}
class RawForm {
  @Field({ schema: { type: 'string' } }) raw!: string;
}
class BadDefaultForm {
  @Field({ default: 'maybe' }) @IsBoolean() sure!: boolean;
}

describe('dtoToElicitationSchema refuses what a form cannot carry', () => {
  it.each([
    [NestedForm, 'NestedForm.inner', /nested objects/],
    [FreeArrayForm, 'FreeArrayForm.words', /multi-select/],
    [PatternForm, 'PatternForm.digits', /pattern/],
    [UuidForm, 'UuidForm.id', /format "uuid"/],
    [PositiveForm, 'PositiveForm.amount', /@Min\/@Max/],
    [NumberEnumForm, 'NumberEnumForm.level', /string values only/],
    [RawForm, 'RawForm.raw', /raw/],
    [BadDefaultForm, 'BadDefaultForm.sure', /default "maybe"/],
  ])('%p', (form, where, why) => {
    let caught: unknown;
    try {
      dtoToElicitationSchema(form);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(FrameworkError);
    expect((caught as FrameworkError).code).toBe('OMC_FORM_UNSUPPORTED');
    expect((caught as Error).message).toContain(where);
    expect((caught as Error).message).toMatch(why);
  });
});

import { IsIn, IsOptional, IsString, ValidateNested } from 'class-validator';
import { Field, createDtoValidator, dtoToJsonSchema, getFieldOptions } from '../../../src/schema';

class Point {
  @IsString() label!: string;
}

class Parent {
  @Field({ description: 'from parent', title: 'Id' }) @IsString() id!: string;
}

class Child extends Parent {
  @Field({ description: 'from child' }) override id!: string;
  @Field({ schema: { type: 'string', pattern: '^[A-Z]{2}$' } }) country!: string;
  @ValidateNested() @Field({ type: () => Point }) point!: Point;
  @IsOptional() @Field({ enumTitles: { s: 'Small', l: 'Large' } }) @IsIn(['s', 'l'], { each: true }) sizes?: string[];
}

describe('@Field', () => {
  it('records options under Symbol.for("onemodelcontext:field"), a subclass replacing its parent per property', () => {
    expect(Reflect.getOwnMetadata(Symbol.for('onemodelcontext:field'), Parent).get('id')).toEqual({
      description: 'from parent',
      title: 'Id',
    });
    expect(getFieldOptions(Child).get('id')).toEqual({ description: 'from child' });
    expect(getFieldOptions(Parent).get('id')?.description).toBe('from parent');
    expect([...getFieldOptions(Child).keys()]).toEqual(['id', 'country', 'point', 'sizes']);
  });

  it('feeds the schema: raw fragment verbatim, nested class via type, titled multi-select', () => {
    expect(JSON.stringify(dtoToJsonSchema(Child).properties)).toBe(
      JSON.stringify({
        id: { type: 'string', description: 'from child' },
        country: { type: 'string', pattern: '^[A-Z]{2}$' },
        point: {
          type: 'object',
          properties: { label: { type: 'string' } },
          required: ['label'],
          additionalProperties: false,
        },
        sizes: {
          type: 'array',
          items: {
            type: 'string',
            anyOf: [
              { const: 's', title: 'Small' },
              { const: 'l', title: 'Large' },
            ],
          },
        },
      }),
    );
  });

  it('feeds the validator: nested instances built from type, raw fragments enforced', () => {
    const validate = createDtoValidator(Child);
    const ok = validate({ id: 'a', country: 'NL', point: { label: 'p' }, sizes: ['s'] });
    expect(ok.ok && ok.value.point).toBeInstanceOf(Point);
    const bad = validate({ id: 'a', country: 'Netherlands', point: { label: 1 }, sizes: ['xl'] });
    expect(bad.ok ? [] : bad.errors.sort()).toEqual([
      'country must match pattern "^[A-Z]{2}$"',
      'each value in sizes must be one of the following values: s, l',
      'point.label must be a string',
    ]);
  });
});

import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDateString,
  IsEmail,
  IsEnum,
  IsIn,
  IsInt,
  IsISO8601,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  IsUrl,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { Field, dtoToJsonSchema } from '../../../src/schema';

enum Colour {
  Red = 'red',
  Green = 'green',
}

class Address {
  @IsString() city!: string;
  @IsOptional() @IsString() street?: string;
}

class Strings {
  @IsString() @MinLength(2) @MaxLength(10) name!: string;
  @Length(3, 5) code!: string;
  @Matches(/^[a-z]+$/) slug!: string;
  @IsEmail() email!: string;
  @IsUrl() homepage!: string;
  @IsDateString() at!: string;
  @IsISO8601() since!: string;
  @IsUUID() id!: string;
}

class Numbers {
  @IsInt() @Min(1) @Max(10) count!: number;
  @IsNumber() ratio!: number;
  @IsPositive() price!: number;
  @IsBoolean() flag!: boolean;
}

class Enums {
  @IsEnum(Colour) colour!: Colour;
  @IsIn(['a', 'b']) letter!: string;
  @IsIn([1, 2, 3]) level!: number;
}

class Arrays {
  @IsArray() @IsString({ each: true }) @ArrayMinSize(1) @ArrayMaxSize(3) tags!: string[];
  @IsIn(['x', 'y'], { each: true }) picks!: string[];
  @Field({ type: () => Number }) scores!: number[];
}

class Nested {
  @ValidateNested() @Type(() => Address) home!: Address;
  @ValidateNested({ each: true }) @Type(() => Address) others!: Address[];
  @ValidateNested() @Field({ type: () => Address }) work!: Address;
}

class Annotated {
  @Field({ title: 'Query', description: 'What to search', examples: ['cats'] }) @IsString() query!: string;
  @Field({ default: 10, description: 'Page size' }) @IsOptional() @IsInt() limit?: number;
  @IsInt() page = 1;
  @Field({ format: 'date' }) @IsString() day!: string;
  @Field({ mcpHeader: 'X-Tenant' }) @IsString() tenant!: string;
  @Field({ schema: { type: 'string', enum: ['raw'] } }) raw!: string;
}

class FieldOnly {
  @Field({ description: 'plain' }) plain!: string;
  @IsInt() count!: number;
  @Field() enabled!: boolean;
}

class Titled {
  @Field({ enumTitles: { red: 'Red!', green: 'Green!' } }) @IsEnum(Colour) colour!: Colour;
  @Field({ enumTitles: { red: 'Red!', green: 'Green!' } }) @IsEnum(Colour, { each: true }) colours!: Colour[];
  @Field({ enumTitles: { red: 'Red!', green: 'Green!' }, legacyEnumNames: true }) @IsEnum(Colour) legacy!: Colour;
}

class Base {
  @IsString() id!: string;
  @IsOptional() @IsString() note?: string;
}

class Derived extends Base {
  @IsInt() size!: number;
  @IsString() @MaxLength(5) override note?: string;
}

class TreeNode {
  @IsString() label!: string;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => TreeNode) children?: TreeNode[];
}

class Forest {
  @ValidateNested() @Type(() => TreeNode) tree!: TreeNode;
}

class Empty {}

const object = (properties: object, required?: string[]) => ({
  type: 'object',
  properties,
  ...(required ? { required } : {}),
  additionalProperties: false,
});

const addressSchema = object({ city: { type: 'string' }, street: { type: 'string' } }, ['city']);

const table: Array<[string, Function, object]> = [
  [
    'strings and formats',
    Strings,
    object(
      {
        name: { type: 'string', minLength: 2, maxLength: 10 },
        code: { type: 'string', minLength: 3, maxLength: 5 },
        slug: { type: 'string', pattern: '^[a-z]+$' },
        email: { type: 'string', format: 'email' },
        homepage: { type: 'string', format: 'uri' },
        at: { type: 'string', format: 'date-time' },
        since: { type: 'string', format: 'date-time' },
        id: { type: 'string', format: 'uuid' },
      },
      ['name', 'code', 'slug', 'email', 'homepage', 'at', 'since', 'id'],
    ),
  ],
  [
    'numbers and booleans',
    Numbers,
    object(
      {
        count: { type: 'integer', minimum: 1, maximum: 10 },
        ratio: { type: 'number' },
        price: { type: 'number', exclusiveMinimum: 0 },
        flag: { type: 'boolean' },
      },
      ['count', 'ratio', 'price', 'flag'],
    ),
  ],
  [
    'enums',
    Enums,
    object(
      {
        colour: { type: 'string', enum: ['red', 'green'] },
        letter: { type: 'string', enum: ['a', 'b'] },
        level: { type: 'integer', enum: [1, 2, 3] },
      },
      ['colour', 'letter', 'level'],
    ),
  ],
  [
    'arrays',
    Arrays,
    object(
      {
        tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 },
        picks: { type: 'array', items: { type: 'string', enum: ['x', 'y'] } },
        scores: { type: 'array', items: { type: 'number' } },
      },
      ['tags', 'picks', 'scores'],
    ),
  ],
  [
    'nested DTOs, inline',
    Nested,
    object({ home: addressSchema, others: { type: 'array', items: addressSchema }, work: addressSchema }, [
      'home',
      'others',
      'work',
    ]),
  ],
  [
    'annotations, defaults, x-mcp-header, raw fragment',
    Annotated,
    object(
      {
        query: { type: 'string', title: 'Query', description: 'What to search', examples: ['cats'] },
        limit: { type: 'integer', description: 'Page size', default: 10 },
        page: { type: 'integer', default: 1 },
        day: { type: 'string', format: 'date' },
        tenant: { type: 'string', 'x-mcp-header': 'X-Tenant' },
        raw: { type: 'string', enum: ['raw'] },
      },
      ['query', 'day', 'tenant', 'raw'],
    ),
  ],
  [
    '@Field alone makes a property',
    FieldOnly,
    object(
      { plain: { type: 'string', description: 'plain' }, count: { type: 'integer' }, enabled: { type: 'boolean' } },
      ['plain', 'count', 'enabled'],
    ),
  ],
  [
    'enum titles',
    Titled,
    object(
      {
        colour: {
          type: 'string',
          oneOf: [
            { const: 'red', title: 'Red!' },
            { const: 'green', title: 'Green!' },
          ],
        },
        colours: {
          type: 'array',
          items: {
            type: 'string',
            anyOf: [
              { const: 'red', title: 'Red!' },
              { const: 'green', title: 'Green!' },
            ],
          },
        },
        legacy: { type: 'string', enum: ['red', 'green'], enumNames: ['Red!', 'Green!'] },
      },
      ['colour', 'colours', 'legacy'],
    ),
  ],
  [
    'inheritance: parent first, override wins',
    Derived,
    object({ id: { type: 'string' }, note: { type: 'string', maxLength: 5 }, size: { type: 'integer' } }, [
      'id',
      'size',
    ]),
  ],
  [
    'recursion through $defs',
    Forest,
    {
      type: 'object',
      properties: { tree: { $ref: '#/$defs/TreeNode' } },
      required: ['tree'],
      additionalProperties: false,
      $defs: {
        TreeNode: object(
          { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/TreeNode' } } },
          ['label'],
        ),
      },
    },
  ],
  [
    'root recursion refers to "#"',
    TreeNode,
    object({ label: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } }, ['label']),
  ],
  ['an empty DTO takes no arguments', Empty, object({})],
];

describe('dtoToJsonSchema', () => {
  it.each(table)('%s', (_name, dto, expected) => {
    expect(JSON.stringify(dtoToJsonSchema(dto))).toBe(JSON.stringify(expected));
  });

  it('computes once per class and freezes the result', () => {
    const first = dtoToJsonSchema(Strings);
    expect(dtoToJsonSchema(Strings)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen((first.properties as Record<string, object>).name)).toBe(true);
  });

  it('emits no $schema key', () => {
    expect(dtoToJsonSchema(Numbers)).not.toHaveProperty('$schema');
  });
});

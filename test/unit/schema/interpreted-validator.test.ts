import { interpretJsonSchema } from '../../../src/schema/interpreted-validator';
import { deepFrozenCopy } from '../../../src/schema/frozen-json';

const schema = deepFrozenCopy({
  type: 'object',
  properties: {
    name: { type: 'string' },
    address: { type: 'object', properties: { zip: { type: 'integer', minimum: 1000 } }, required: ['zip'] },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['name'],
  additionalProperties: false,
});

test('accepts a valid value, also when the schema is frozen', () => {
  expect(interpretJsonSchema(schema, '2020-12')({ name: 'Ada', tags: ['x'] })).toEqual({ ok: true });
});

test('reports the leaves only, worded with readable paths like the Ajv path', () => {
  const result = interpretJsonSchema(schema, '2020-12')({ address: { zip: 12 }, tags: [1], extra: true });
  expect(result).toEqual({
    ok: false,
    errors: [
      'input instance does not have required property "name"',
      'address.zip 12 is less than 1000',
      'tags[0] instance type "number" is invalid. Expected "string"',
      'property extra should not exist',
    ],
  });
});

test('draft-07 schemas are read as draft-07', () => {
  const draft07 = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { n: { type: 'number' } } };
  expect(interpretJsonSchema(draft07, 'draft-07')({ n: 'x' })).toEqual({ ok: false, errors: ['n instance type "string" is invalid. Expected "number"'] });
});

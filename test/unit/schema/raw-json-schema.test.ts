import { FrameworkError } from '../../../src/errors/framework-error';
import { compileJsonSchema, jsonSchemaFor, type JsonSchemaObject } from '../../../src/schema';

/** The official conformance fixture for `json_schema_2020_12_tool`, exactly as the suite gives it. */
const CONFORMANCE_FIXTURE =
  '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","$defs":{"address":{"$anchor":"addressDef","type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},"properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"},"contactMethod":{"type":"string","enum":["phone","email"]},"phone":{"type":"string"},"email":{"type":"string"}},"allOf":[{"anyOf":[{"required":["phone"]},{"required":["email"]}]}],"if":{"properties":{"contactMethod":{"const":"phone"}},"required":["contactMethod"]},"then":{"required":["phone"]},"else":{"required":["email"]},"additionalProperties":false}';

describe('jsonSchemaFor (raw schema escape hatch)', () => {
  const raw = JSON.parse(CONFORMANCE_FIXTURE) as JsonSchemaObject;

  it('returns the conformance fixture byte-for-byte', () => {
    expect(JSON.stringify(jsonSchemaFor(raw))).toBe(CONFORMANCE_FIXTURE);
  });

  it('returns a deep-frozen copy, the same one every time', () => {
    const schema = jsonSchemaFor(raw);
    expect(schema).not.toBe(raw);
    expect(jsonSchemaFor(raw)).toBe(schema);
    expect(Object.isFrozen(schema)).toBe(true);
    expect(Object.isFrozen((schema.$defs as Record<string, object>).address)).toBe(true);
    expect(Object.isFrozen(raw)).toBe(false);
  });

  it('keeps a "__proto__" key a plain key', () => {
    const hostile = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}') as JsonSchemaObject;
    const schema = jsonSchemaFor(hostile);
    expect(JSON.stringify(schema)).toBe('{"type":"object","properties":{"__proto__":{"type":"string"}}}');
    expect(Object.getPrototypeOf(schema.properties)).toBe(Object.prototype);
  });

  it.each([[null], [[]], ['{}']])('refuses %p', (input) => {
    expect(() => jsonSchemaFor(input as unknown as JsonSchemaObject)).toThrow(FrameworkError);
  });
});

describe('compileJsonSchema', () => {
  const validate = compileJsonSchema(jsonSchemaFor(JSON.parse(CONFORMANCE_FIXTURE) as JsonSchemaObject));

  it.each([
    [{ contactMethod: 'phone', phone: '+31 6 1234' }],
    [{ contactMethod: 'email', email: 'a@b.c' }],
    [{ name: 'Ada', email: 'a@b.c', address: { street: 'Main', city: 'Delft' } }],
  ])('accepts %p', (input) => {
    expect(validate(input)).toEqual({ ok: true });
  });

  it('fails when contactMethod is phone but phone is missing', () => {
    const result = validate({ contactMethod: 'phone' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toContain("input must have required property 'phone'");
  });

  it.each([
    [{ contactMethod: 'fax', email: 'a@b.c' }, 'contactMethod must be equal to one of the allowed values'],
    [{ email: 'a@b.c', address: { city: 5 } }, 'address.city must be string'],
    [{ email: 'a@b.c', extra: 1 }, 'property extra should not exist'],
    [{ name: 'no contact' }, "input must have required property 'email'"],
  ])('reports %p readably', (input, message) => {
    const result = validate(input);
    expect(result.ok ? [] : result.errors).toContain(message);
  });

  it('caches by schema identity', () => {
    const schema = { type: 'string' };
    expect(compileJsonSchema(schema)).toBe(compileJsonSchema(schema));
    expect(compileJsonSchema({ type: 'string' })).not.toBe(compileJsonSchema(schema));
  });

  it('uses formats and array paths', () => {
    const check = compileJsonSchema({ type: 'array', items: { type: 'string', format: 'email' } });
    expect(check(['a@b.c'])).toEqual({ ok: true });
    expect(check(['a@b.c', 'nope'])).toEqual({ ok: false, errors: ['[1] must match format "email"'] });
  });

  it('lets two schemas share an $id', () => {
    expect(() => compileJsonSchema({ $id: 'https://example.com/x', type: 'string' })).not.toThrow();
    expect(() => compileJsonSchema({ $id: 'https://example.com/x', type: 'number' })).not.toThrow();
  });

  it('never fetches a remote $ref: it refuses the schema instead', () => {
    expect(() => compileJsonSchema({ $ref: 'https://example.com/remote.json' })).toThrow(
      expect.objectContaining({ code: 'OMC_SCHEMA_UNSUPPORTED' }),
    );
  });

  it.each([[{ type: 'not-a-type' }], [{ $ref: '#/$defs/missing' }]])('refuses an uncompilable schema %p', (schema) => {
    expect(() => compileJsonSchema(schema)).toThrow(expect.objectContaining({ code: 'OMC_SCHEMA_UNSUPPORTED' }));
  });

  it('handles hostile data without throwing', () => {
    const check = compileJsonSchema({
      type: 'object',
      additionalProperties: false,
      properties: { a: { type: 'string' } },
    });
    const huge: Record<string, number> = {};
    for (let i = 0; i < 10_000; i++) huge[`k${i}`] = i;
    expect(check(huge)).toEqual({
      ok: false,
      errors: expect.arrayContaining(['property k0 should not exist', '…and 9980 more problems']),
    });
    expect(check(JSON.parse('{"__proto__":{"polluted":1}}'))).toEqual({
      ok: false,
      errors: ['property __proto__ should not exist'],
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

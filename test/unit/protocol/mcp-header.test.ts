/** The header value codec (SEP-2243 table) and the x-mcp-header declaration rules (digest §4.2). */
import fc from 'fast-check';
import { FrameworkError, McpApplication } from '../../../src';
import {
  decodeHeaderValue,
  encodeHeaderValue,
  headerMatchesValue,
  headerParamValue,
  mcpHeaderProblems,
  readHeaderParams,
} from '../../../src/protocol/mcp-header';

describe('decodeHeaderValue', () => {
  test.each([
    ['=?base64?SGVsbG8=?=', 'Hello'],
    ['SGVsbG8=', 'SGVsbG8='],
    ['=?base64?SGVsbG8=', '=?base64?SGVsbG8='],
    ['=?BASE64?SGVsbG8=?=', '=?BASE64?SGVsbG8=?='],
    ['  padded\t', 'padded'],
    ['=?base64??=', ''],
    ['=?base64?w6k=?=', 'é'],
  ])('%s → %s', (raw, value) => expect(decodeHeaderValue(raw)).toEqual({ ok: true, value }));

  test.each(['=?base64?SGVsbG8?=', '=?base64?SGVs!!!bG8=?=', '=?base64?SGVsbG9=?=', '=?base64?SGVs bG8=?=', '=?base64?/w==?='])(
    '%s is rejected',
    (raw) => expect(decodeHeaderValue(raw).ok).toBe(false),
  );

  test('encode/decode round-trips any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) =>
        expect(decodeHeaderValue(encodeHeaderValue(s))).toEqual({ ok: true, value: s }),
      ),
    );
  });

  test('safe ASCII stays plain; whitespace edges, non-ASCII and the sentinel are base64', () => {
    expect(encodeHeaderValue('us-west1')).toBe('us-west1');
    expect(encodeHeaderValue(' x')).toMatch(/^=\?base64\?/);
    expect(encodeHeaderValue('日本')).toMatch(/^=\?base64\?/);
    expect(encodeHeaderValue('=?base64?abc?=')).toMatch(/^=\?base64\?PT9/);
  });
});

describe('headerMatchesValue', () => {
  test('integers compare numerically, booleans and strings exactly', () => {
    expect(headerMatchesValue('42.0', 42)).toBe(true);
    expect(headerMatchesValue('4.2e1', 42)).toBe(true);
    expect(headerMatchesValue('0x2a', 42)).toBe(false);
    expect(headerMatchesValue('', 0)).toBe(false);
    expect(headerMatchesValue('true', true)).toBe(true);
    expect(headerMatchesValue('True', true)).toBe(false);
    expect(headerMatchesValue('EU', 'eu')).toBe(false);
  });
});

describe('x-mcp-header declarations', () => {
  const schema = (props: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    type: 'object',
    properties: props,
    ...extra,
  });

  test('valid declarations on string/integer/boolean through properties chains', () => {
    const { params, problems } = readHeaderParams(
      schema({
        region: { type: 'string', 'x-mcp-header': 'Region' },
        nested: { type: 'object', properties: { n: { type: 'integer', 'x-mcp-header': 'N' } } },
      }),
    );
    expect(problems).toEqual([]);
    expect(params.map((p) => [p.path.join('.'), p.name])).toEqual([['region', 'Region'], ['nested.n', 'N']]);
    expect(headerParamValue({ nested: { n: 3 } }, params[1]!)).toBe(3);
    expect(headerParamValue({ region: null }, params[0]!)).toBeUndefined();
  });

  test.each([
    ['empty name', schema({ a: { type: 'string', 'x-mcp-header': '' } })],
    ['space in name', schema({ a: { type: 'string', 'x-mcp-header': 'A B' } })],
    ['colon in name', schema({ a: { type: 'string', 'x-mcp-header': 'A:B' } })],
    ['non-ASCII name', schema({ a: { type: 'string', 'x-mcp-header': 'Régión' } })],
    ['number type', schema({ a: { type: 'number', 'x-mcp-header': 'A' } })],
    ['object type', schema({ a: { type: 'object', 'x-mcp-header': 'A' } })],
    ['array type', schema({ a: { type: 'array', 'x-mcp-header': 'A' } })],
    [
      'duplicate (case-insensitive)',
      schema({ a: { type: 'string', 'x-mcp-header': 'Region' }, b: { type: 'string', 'x-mcp-header': 'region' } }),
    ],
    ['inside items', schema({ a: { type: 'array', items: { type: 'string', 'x-mcp-header': 'A' } } })],
    ['inside oneOf', schema({}, { oneOf: [{ properties: { a: { type: 'string', 'x-mcp-header': 'A' } } }] })],
    ['inside $defs', schema({}, { $defs: { D: { type: 'string', 'x-mcp-header': 'A' } } })],
    ['on the root', { type: 'object', 'x-mcp-header': 'Root' }],
  ])('%s is a problem', (_label, s) => expect(mcpHeaderProblems(s)).toHaveLength(1));

  test('a property literally named x-mcp-header is not a declaration', () => {
    expect(mcpHeaderProblems(schema({ 'x-mcp-header': { type: 'object' } }))).toEqual([]);
  });

  test('registration refuses a bad declaration with OMC_INVALID_MCP_HEADER naming owner and property', () => {
    const app = McpApplication.create({ name: 'h', version: '1', providers: [] });
    const add = () =>
      app.addTool({
        name: 'bad',
        input: schema({ price: { type: 'number', 'x-mcp-header': 'Price' } }),
        handler: () => 'x',
      });
    expect(add).toThrow(FrameworkError);
    expect(add).toThrow(/OMC_INVALID_MCP_HEADER.*bad.*price/);
  });
});

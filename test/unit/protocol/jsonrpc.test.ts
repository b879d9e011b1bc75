import { decodeText, decodeValue, jsonDepthExceeds, MAX_JSON_DEPTH } from '../../../src/protocol/jsonrpc';

describe('decodeText', () => {
  test.each([
    ['{', -32700],
    ['', -32700],
    ['NaN', -32700],
    ['\uFEFF{"jsonrpc":"2.0","id":1,"method":"ping"}', -32700],
    ['{"jsonrpc":"2.0","id":1,"method":"ping"} trailing', -32700],
    ['"just a string"', -32600],
    ['42', -32600],
    ['null', -32600],
    ['{"jsonrpc":"1.0","id":1,"method":"ping"}', -32600],
    ['{"jsonrpc":"2.0","id":1}', -32600],
    ['{"jsonrpc":"2.0","id":1,"method":5}', -32600],
    ['{"jsonrpc":"2.0","id":1,"method":""}', -32600],
    ['{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', -32600],
    ['{"jsonrpc":"2.0","id":null,"method":"ping"}', -32600],
    ['{"jsonrpc":"2.0","id":1,"method":"ping","params":[1,2]}', -32600],
    ['{"jsonrpc":"2.0","id":1,"method":"ping","params":"x"}', -32600],
    ['{"jsonrpc":"2.0","id":1,"Method":"ping"}', -32600],
    ['{"jsonrpc":"2.0","id":1,"METHOD":"ping"}', -32600],
    ['{"Jsonrpc":"2.0","id":1,"method":"ping"}', -32600],
  ])('%s → %d', (text, code) => {
    const d = decodeText(text);
    expect(d.kind).toBe('invalid');
    if (d.kind === 'invalid') expect(d.error.error.code).toBe(code);
  });

  test('echoes a valid id on invalid requests and null otherwise', () => {
    const withId = decodeText('{"jsonrpc":"2.0","id":"a","method":7}');
    expect(withId.kind === 'invalid' && withId.error.id).toBe('a');
    const parse = decodeText('{oops');
    expect(parse.kind === 'invalid' && parse.error.id).toBeNull();
  });

  test('classifies requests, notifications, responses and batches', () => {
    expect(decodeText('{"jsonrpc":"2.0","id":1,"method":"ping"}').kind).toBe('request');
    expect(decodeText('{"jsonrpc":"2.0","method":"notifications/initialized"}').kind).toBe('notification');
    expect(decodeText('{"jsonrpc":"2.0","id":1,"result":{}}').kind).toBe('response');
    expect(decodeText('{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m"}}').kind).toBe('response');
    expect(decodeText('[{"jsonrpc":"2.0","id":1,"method":"ping"}]').kind).toBe('batch');
  });

  test('refuses nesting deeper than 64 without building it, accepts 64', () => {
    const nest = (n: number) => '['.repeat(n) + ']'.repeat(n);
    expect(jsonDepthExceeds(nest(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonDepthExceeds(nest(MAX_JSON_DEPTH + 1))).toBe(true);
    const bomb = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"a":${nest(100_000)}}}`;
    const d = decodeText(bomb);
    expect(d.kind === 'invalid' && d.error.error.code).toBe(-32600);
    // Brackets inside strings do not count.
    expect(jsonDepthExceeds(`{"s":"${'['.repeat(1000)}"}`)).toBe(false);
    expect(jsonDepthExceeds(`{"s":"\\"${'['.repeat(1000)}"}`)).toBe(false);
  });

  test('prototype keys stay plain data', () => {
    const d = decodeText(
      '{"jsonrpc":"2.0","id":1,"method":"x","params":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}}',
    );
    expect(d.kind).toBe('request');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(decodeValue(Object.create({ method: 'inherited', jsonrpc: '2.0' })).kind).toBe('invalid');
  });
});

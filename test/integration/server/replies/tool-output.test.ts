/**
 * Issue 11: a tool that declares its output always answers structuredContent that conforms (or a
 * tool error with the reason, logged); a tool without arguments refuses unknown ones; raw schemas
 * in an unsupported dialect fail at start-up naming the tool. Over HTTP, both eras.
 */
import { IsInt, IsString } from 'class-validator';
import { ContextServerModule, FrameworkError, McpApplication, Tool } from '../../../../src';
import { serveHttp, type HttpServerHandle } from '../../../../src/transports/http';
import type { ServerLogger } from '../../../../src/server/core/server-logger';
import { modernPost, RawLegacyClient, replyOf } from '../../../helpers/http-fixtures';

class Weather {
  @IsString() city!: string;
  @IsInt() celsius!: number;
}

const logged: Array<{ message: string; detail?: Record<string, unknown> }> = [];
const logger: ServerLogger = { warn: () => undefined, error: (message, detail) => logged.push({ message, detail }) };

class Outputs {
  @Tool({ description: 'Conforms', output: Weather })
  good() {
    return { city: 'Oslo', celsius: 3 };
  }
  @Tool({ description: 'Breaks its own schema', output: Weather })
  bad() {
    return { city: 'Oslo', celsius: 'cold' };
  }
  @Tool({ description: 'Returns a string for an object schema', output: Weather })
  stringly() {
    return 'Oslo, 3';
  }
  @Tool({ description: 'A string schema', output: { type: 'string' } })
  label() {
    return 'plain words';
  }
  @Tool({ description: 'An array schema', output: { type: 'array', items: { type: 'integer' } } })
  numbers() {
    return [1, 2, 3];
  }
  @Tool({ description: 'A full result without structuredContent', output: Weather })
  unstructured() {
    return { content: [{ type: 'text', text: 'forgot it' }] };
  }
  @Tool({ description: 'No arguments' })
  ping() {
    return 'pong';
  }
}

let server: HttpServerHandle;
beforeAll(async () => {
  const app = McpApplication.create({
    name: 'outputs',
    version: '1.0.0',
    providers: [Outputs],
    modules: [ContextServerModule.configure({ logger })],
  });
  server = await serveHttp(app, { port: 0 });
});
afterAll(() => server.close());

const call2026 = async (name: string, args: unknown = {}) =>
  (await modernPost(server.url, 1, 'tools/call', { name, arguments: args as never })).json().result;

describe('outputSchema is honoured', () => {
  test('a conforming object: structuredContent and the same JSON as text', async () => {
    const r = await call2026('good');
    expect(r.structuredContent).toEqual({ city: 'Oslo', celsius: 3 });
    expect(JSON.parse(r.content[0].text)).toEqual({ city: 'Oslo', celsius: 3 });
    expect(r.isError).toBeUndefined();
  });

  test.each([
    ['bad', /celsius/],
    ['stringly', /structuredContent must be object/],
    ['unstructured', /no structuredContent/],
  ])('%s: a tool error naming the reason, and a log line', async (name, reason) => {
    logged.length = 0;
    const r = await call2026(name);
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toMatch(/does not match its outputSchema/);
    expect(r.content[0].text).toMatch(reason);
    expect(r).not.toHaveProperty('structuredContent');
    expect(logged[0]?.message).toMatch(
      new RegExp(`Outputs\\.${name} returned output that does not match its outputSchema`),
    );
    expect(String(logged[0]?.detail?.reason)).toMatch(reason);
  });

  test('2026: strings and arrays are structured when the schema says so', async () => {
    expect((await call2026('label')).structuredContent).toBe('plain words');
    expect((await call2026('numbers')).structuredContent).toEqual([1, 2, 3]);
  });

  test('2025-11-25: the same tools, the same checks', async () => {
    const legacy = new RawLegacyClient(server.url, '2025-11-25');
    await legacy.initialize();
    const good = replyOf(await legacy.call(2, 'tools/call', { name: 'good', arguments: {} })).result;
    expect(good.structuredContent).toEqual({ city: 'Oslo', celsius: 3 });
    const bad = replyOf(await legacy.call(3, 'tools/call', { name: 'bad', arguments: {} })).result;
    expect(bad.isError).toBe(true);
    expect(bad.content[0].text).toMatch(/celsius/);
  });
});

describe('a tool without arguments', () => {
  test('advertises additionalProperties: false and refuses unknown arguments on both eras', async () => {
    const list = (await modernPost(server.url, 4, 'tools/list')).json().result.tools;
    expect(list.find((t: { name: string }) => t.name === 'ping').inputSchema).toEqual({
      type: 'object',
      additionalProperties: false,
    });
    const r = await call2026('ping', { surprise: 1 });
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toMatch(/property surprise should not exist/);
    expect((await call2026('ping', {})).content[0].text).toBe('pong');
    const legacy = new RawLegacyClient(server.url, '2025-06-18');
    await legacy.initialize();
    const l = replyOf(await legacy.call(5, 'tools/call', { name: 'ping', arguments: { surprise: 1 } })).result;
    expect(l.isError).toBe(true);
  });
});

test('a raw schema in an unsupported dialect fails at start-up', () => {
  class Old {
    @Tool({ description: 'draft-04', input: { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' } })
    old() {
      return 'x';
    }
  }
  expect(() => McpApplication.create({ name: 'x', version: '1', providers: [Old] })).toThrow(FrameworkError);
  expect(() => McpApplication.create({ name: 'x', version: '1', providers: [Old] })).toThrow(
    /Old\.old: \$schema .* is not a supported dialect/,
  );
});

test('a raw draft-07 input schema is accepted and enforced', async () => {
  class Modern07 {
    @Tool({
      description: 'draft-07',
      input: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { n: { type: 'integer', minimum: 1 } },
        required: ['n'],
      },
    })
    count(args: { n: number }) {
      return `n=${args.n}`;
    }
  }
  const app = McpApplication.create({
    name: 'd7',
    version: '1',
    providers: [Modern07],
    modules: [ContextServerModule.configure({ logger })],
  });
  const s = await serveHttp(app, { port: 0 });
  try {
    const ok = (await modernPost(s.url, 1, 'tools/call', { name: 'count', arguments: { n: 2 } })).json().result;
    expect(ok.content[0].text).toBe('n=2');
    const bad = (await modernPost(s.url, 2, 'tools/call', { name: 'count', arguments: { n: 0 } })).json().result;
    expect(bad.isError).toBe(true);
  } finally {
    await s.close();
  }
});

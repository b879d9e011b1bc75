/**
 * Down-conversion per negotiated revision, on the wire (legacy HTTP sessions): each revision
 * receives only what its own schema.ts defines — listing entries, prompt arguments, serverInfo,
 * content blocks — and a non-object outputSchema is wrapped, not dropped.
 */
import { IsString } from 'class-validator';
import { ContextServerModule, Field, McpApplication, Prompt } from '../../../../src';
import { silentLogger } from '../../../../src/server/core/server-logger';
import { serveHttp, type HttpServerHandle } from '../../../../src/transports/http';
import { RawLegacyClient } from '../../../helpers/http-fixtures';

class CityArgs {
  @IsString() @Field({ title: 'City', description: 'Where' }) city!: string;
}
class Prompts {
  @Prompt({
    title: 'Weather',
    description: 'Ask about weather',
    icons: [{ src: 'https://x.test/p.png' }],
    _meta: { 'x.test/p': 1 },
  })
  weather(args: CityArgs) {
    return [`Weather in ${args.city}?`];
  }
}

const ICON = [{ src: 'https://x.test/i.png', mimeType: 'image/png' }];
let server: HttpServerHandle;

beforeAll(async () => {
  const app = McpApplication.create({
    name: 'shapes',
    version: '1.0.0',
    title: 'Shapes',
    description: 'A server with every optional field',
    websiteUrl: 'https://x.test',
    icons: ICON,
    providers: [Prompts],
    modules: [ContextServerModule.configure({ logger: silentLogger })],
  });
  app.addTool({
    name: 'names',
    title: 'Names',
    description: 'An array result',
    icons: ICON,
    _meta: { 'x.test/t': 1 },
    annotations: { readOnlyHint: true },
    input: { type: 'object' },
    output: { type: 'array', items: { type: 'string' } },
    handler: () => ['ada', 'grace'],
  });
  app.addTool({
    name: 'linked',
    description: 'Returns a resource link and an annotated embedded resource',
    input: { type: 'object' },
    handler: () => ({
      content: [
        { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt', _meta: { m: 1 } },
        {
          type: 'text',
          text: 'hi',
          annotations: { priority: 1, lastModified: '2025-01-01T00:00:00Z' },
          _meta: { m: 2 },
        },
        { type: 'resource', resource: { uri: 'file:///b.txt', text: 'b', _meta: { m: 3 } } },
      ],
    }),
  });
  app.addResource({
    uri: 'file:///c.txt',
    name: 'c',
    title: 'C',
    icons: ICON,
    annotations: { audience: ['user'], lastModified: '2025-01-01T00:00:00Z' },
    _meta: { 'x.test/r': 1 },
    handler: () => ({ text: 'c', _meta: { m: 4 } }),
  } as never);
  server = await serveHttp(app, { port: 0 });
});
afterAll(() => server.close({ deadlineMs: 2000 }));

async function session(version: string) {
  const c = new RawLegacyClient(server.url, version);
  const init = await c.initialize();
  return { c, init: init.json().result };
}

test('2025-03-26: serverInfo is name and version only', async () => {
  const { init } = await session('2025-03-26');
  expect(init.protocolVersion).toBe('2025-03-26');
  expect(init.serverInfo).toEqual({ name: 'shapes', version: '1.0.0' });
  // Only capabilities 2025-03-26 defines (no 2025-11-25 `tasks`, nothing 2026 adds).
  for (const k of Object.keys(init.capabilities))
    expect(['experimental', 'logging', 'completions', 'prompts', 'resources', 'tools']).toContain(k);
  expect(init.capabilities.logging).toEqual({});
});

test('2025-06-18: serverInfo gains title but not icons, description, websiteUrl', async () => {
  const { init } = await session('2025-06-18');
  expect(init.serverInfo).toEqual({ name: 'shapes', version: '1.0.0', title: 'Shapes' });
});

test('2025-11-25: serverInfo carries everything', async () => {
  const { init } = await session('2025-11-25');
  expect(init.serverInfo).toEqual({
    name: 'shapes',
    version: '1.0.0',
    title: 'Shapes',
    description: 'A server with every optional field',
    websiteUrl: 'https://x.test',
    icons: ICON,
  });
});

test('2025-03-26 listings: no title, _meta, icons, outputSchema; prompt arguments without title; annotations without lastModified', async () => {
  const { c } = await session('2025-03-26');
  const tools = (await c.call(1, 'tools/list')).json().result.tools;
  expect(tools.find((t: { name: string }) => t.name === 'names')).toEqual({
    name: 'names',
    description: 'An array result',
    inputSchema: { type: 'object' },
    annotations: { readOnlyHint: true },
  });
  const prompt = (await c.call(2, 'prompts/list')).json().result.prompts[0];
  expect(prompt).toEqual({
    name: 'weather',
    description: 'Ask about weather',
    arguments: [{ name: 'city', description: 'Where', required: true }],
  });
  const resource = (await c.call(3, 'resources/list')).json().result.resources[0];
  expect(resource).toEqual({ name: 'c', uri: 'file:///c.txt', annotations: { audience: ['user'] } });
});

test('2025-06-18 listings: title and _meta but no icons; a non-object outputSchema is wrapped in an object', async () => {
  const { c } = await session('2025-06-18');
  const names = (await c.call(1, 'tools/list')).json().result.tools.find((t: { name: string }) => t.name === 'names');
  expect(names.icons).toBeUndefined();
  expect(names.title).toBe('Names');
  expect(names._meta).toEqual({ 'x.test/t': 1 });
  expect(names.outputSchema).toMatchObject({
    type: 'object',
    properties: { result: { type: 'array', items: { type: 'string' } } },
    required: ['result'],
  });
  const prompt = (await c.call(2, 'prompts/list')).json().result.prompts[0];
  expect(prompt.icons).toBeUndefined();
  expect(prompt.arguments[0].title).toBe('City');
  const resource = (await c.call(3, 'resources/list')).json().result.resources[0];
  expect(resource.annotations.lastModified).toBe('2025-01-01T00:00:00Z');
});

test('2025-06-18 and 2025-11-25: the array result arrives wrapped as the wrapped schema says, with its JSON text', async () => {
  for (const v of ['2025-06-18', '2025-11-25']) {
    const { c } = await session(v);
    const r = (await c.call(1, 'tools/call', { name: 'names', arguments: {} })).json().result;
    expect(r.structuredContent).toEqual({ result: ['ada', 'grace'] });
    expect(r.content).toEqual([{ type: 'text', text: '["ada","grace"]' }]);
  }
});

test('2025-03-26: no structuredContent; resource_link becomes text; no _meta or lastModified in content', async () => {
  const { c } = await session('2025-03-26');
  const names = (await c.call(1, 'tools/call', { name: 'names', arguments: {} })).json().result;
  expect(names).toEqual({ content: [{ type: 'text', text: '["ada","grace"]' }] });
  const linked = (await c.call(2, 'tools/call', { name: 'linked', arguments: {} })).json().result;
  expect(linked.content).toEqual([
    { type: 'text', text: 'a.txt: file:///a.txt' },
    { type: 'text', text: 'hi', annotations: { priority: 1 } },
    { type: 'resource', resource: { uri: 'file:///b.txt', text: 'b' } },
  ]);
  const read = (await c.call(3, 'resources/read', { uri: 'file:///c.txt' })).json().result;
  expect(read.contents).toEqual([{ uri: 'file:///c.txt', text: 'c' }]);
});

test('2025-06-18 keeps resource_link, content _meta and lastModified', async () => {
  const { c } = await session('2025-06-18');
  const linked = (await c.call(1, 'tools/call', { name: 'linked', arguments: {} })).json().result;
  expect(linked.content[0]).toEqual({ type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt', _meta: { m: 1 } });
  expect(linked.content[1].annotations.lastModified).toBe('2025-01-01T00:00:00Z');
  const read = (await c.call(2, 'resources/read', { uri: 'file:///c.txt' })).json().result;
  expect(read.contents[0]._meta).toEqual({ m: 4 });
});

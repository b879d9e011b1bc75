/** Inventory: every fixture the suite calls is listed, with the exact descriptors it checks. */
import { createConformanceApp } from '../../../conformance/app';
import { JSON_SCHEMA_2020_12 } from '../../../conformance/tools/schema-tools';
import { FIXTURE_PROMPTS, FIXTURE_RESOURCES, FIXTURE_TOOLS, legacyClient, modernClient } from './harness';

const app = createConformanceApp();

/** The suite's fixture schema, as the scenario's requirement text gives it. */
const SUITE_SCHEMA =
  '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","$defs":{"address":{"$anchor":"addressDef","type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},"properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"},"contactMethod":{"type":"string","enum":["phone","email"]},"phone":{"type":"string"},"email":{"type":"string"}},"allOf":[{"anyOf":[{"required":["phone"]},{"required":["email"]}]}],"if":{"properties":{"contactMethod":{"const":"phone"}},"required":["contactMethod"]},"then":{"required":["phone"]},"else":{"required":["email"]},"additionalProperties":false}';

describe.each(['modern', 'legacy'] as const)('conformance inventory (%s)', (era) => {
  const connect = () => (era === 'modern' ? modernClient(app) : legacyClient(app).then((l) => l.client));

  it('lists every fixture tool with name, description and an object inputSchema', async () => {
    const client = await connect();
    const { tools } = (await client.request('tools/list')) as { tools: Array<Record<string, any>> };
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(FIXTURE_TOOLS));
    for (const t of tools) {
      expect(t.name).toMatch(/^[A-Za-z0-9_.-]{1,128}$/);
      expect(typeof t.description).toBe('string');
      expect(t.description.length).toBeGreaterThan(0);
      expect(t.inputSchema.type).toBe('object');
    }
  });

  it('lists tools in the same order every time (tools-list-deterministic-order)', async () => {
    const client = await connect();
    const names = async () =>
      ((await client.request('tools/list')).tools as Array<{ name: string }>).map((t) => t.name);
    expect(await names()).toEqual(await names());
  });

  it('emits the 2020-12 fixture schema verbatim, key order included', async () => {
    const client = await connect();
    const { tools } = (await client.request('tools/list')) as { tools: Array<Record<string, any>> };
    const tool = tools.find((t) => t.name === 'json_schema_2020_12_tool');
    expect(JSON.stringify(tool?.inputSchema)).toBe(SUITE_SCHEMA);
    expect(JSON.stringify(JSON_SCHEMA_2020_12)).toBe(SUITE_SCHEMA);
  });

  it('annotates the region argument of test_x_mcp_header with x-mcp-header "Region"', async () => {
    const client = await connect();
    const { tools } = (await client.request('tools/list')) as { tools: Array<Record<string, any>> };
    const schema = tools.find((t) => t.name === 'test_x_mcp_header')?.inputSchema;
    expect(schema.properties.region).toMatchObject({ type: 'string', 'x-mcp-header': 'Region' });
    expect(schema.properties.level).toMatchObject({ type: 'integer' });
    expect(schema.properties.level['x-mcp-header']).toBeUndefined();
  });

  it('lists every fixture prompt with its arguments', async () => {
    const client = await connect();
    const { prompts } = (await client.request('prompts/list')) as { prompts: Array<Record<string, any>> };
    expect(prompts.map((p) => p.name)).toEqual(expect.arrayContaining(FIXTURE_PROMPTS));
    for (const p of prompts) expect(p.description.length).toBeGreaterThan(0);
    const byName = (n: string) => prompts.find((p) => p.name === n);
    expect(byName('test_prompt_with_arguments')?.arguments).toEqual([
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ]);
    expect(byName('test_prompt_with_embedded_resource')?.arguments).toEqual([
      { name: 'resourceUri', description: 'URI of the resource to embed', required: true },
    ]);
    expect(byName('test_simple_prompt')?.arguments).toBeUndefined();
  });

  it('lists the direct resources and the template', async () => {
    const client = await connect();
    const { resources } = (await client.request('resources/list')) as { resources: Array<Record<string, any>> };
    expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining(FIXTURE_RESOURCES));
    for (const r of resources) expect(typeof r.name).toBe('string');
    const { resourceTemplates } = (await client.request('resources/templates/list')) as {
      resourceTemplates: Array<Record<string, any>>;
    };
    expect(resourceTemplates).toContainEqual(
      expect.objectContaining({
        uriTemplate: 'test://template/{id}/data',
        name: 'template',
        mimeType: 'application/json',
      }),
    );
  });
});

describe('conformance capabilities', () => {
  it('server/discover declares what the suite expects and names the server in _meta', async () => {
    const client = await modernClient(app, {});
    const discover = await client.request('server/discover');
    expect(discover.supportedVersions).toContain('2026-07-28');
    expect(discover.capabilities).toMatchObject({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      completions: {},
    });
    expect(discover._meta).toMatchObject({
      'io.modelcontextprotocol/serverInfo': { name: 'onemodelcontext-conformance-server', version: '1.0.0' },
    });
    expect(discover).toMatchObject({
      resultType: 'complete',
      ttlMs: expect.any(Number),
      cacheScope: expect.stringMatching(/^(public|private)$/),
    });
  });

  it('2026 list and read results carry cache hints (caching)', async () => {
    const client = await modernClient(app);
    for (const method of ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']) {
      expect(await client.request(method)).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
    }
    const first = ((await client.request('resources/list')).resources as Array<{ uri: string }>)[0]!;
    expect(await client.request('resources/read', { uri: first.uri })).toMatchObject({
      resultType: 'complete',
      ttlMs: 0,
    });
  });

  it('initialize declares logging too on 2025-11-25', async () => {
    const { MemoryClient } = await import('../../../src');
    const client = await MemoryClient.connect(app, { era: 'modern' });
    const init = await client.raw('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'conformance-test-client', version: '1.0.0' },
    });
    expect('result' in init && init.result.capabilities).toMatchObject({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      logging: {},
      completions: {},
    });
  });
});

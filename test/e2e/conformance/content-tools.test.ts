/** `tools-call-*`, prompts, resources and completion: exact payloads of conformance-map §3.1–3.2 on both eras. */
import { createConformanceApp } from '../../../conformance/app';
import { TEST_AUDIO_BASE64, TEST_IMAGE_BASE64 } from '../../../conformance/media';
import type { MemoryClient } from '../../../src';
import { legacyClient, modernClient } from './harness';

const app = createConformanceApp();

describe.each(['modern', 'legacy'] as const)('content fixtures (%s)', (era) => {
  let client: MemoryClient;
  beforeEach(async () => {
    client = era === 'modern' ? await modernClient(app) : (await legacyClient(app)).client;
  });
  /** The runner calls no-argument tools without an `arguments` key at all. */
  const call = (name: string, params: Record<string, unknown> = {}) =>
    client.request('tools/call', { name, ...params });

  it('test_simple_text, called without arguments', async () => {
    const r = await call('test_simple_text');
    expect(r.content).toEqual([{ type: 'text', text: 'This is a simple text response for testing.' }]);
    expect(r.isError).toBeFalsy();
  });

  it('test_image_content is a base64 PNG', async () => {
    expect((await call('test_image_content', { arguments: {} })).content).toEqual([
      { type: 'image', data: TEST_IMAGE_BASE64, mimeType: 'image/png' },
    ]);
    expect(Buffer.from(TEST_IMAGE_BASE64, 'base64').subarray(1, 4).toString()).toBe('PNG');
  });

  it('test_audio_content is audio/wav exactly', async () => {
    expect((await call('test_audio_content', { arguments: {} })).content).toEqual([
      { type: 'audio', data: TEST_AUDIO_BASE64, mimeType: 'audio/wav' },
    ]);
    expect(Buffer.from(TEST_AUDIO_BASE64, 'base64').subarray(0, 4).toString()).toBe('RIFF');
  });

  it('test_embedded_resource', async () => {
    expect((await call('test_embedded_resource', { arguments: {} })).content).toEqual([
      {
        type: 'resource',
        resource: {
          uri: 'test://embedded-resource',
          mimeType: 'text/plain',
          text: 'This is an embedded resource content.',
        },
      },
    ]);
  });

  it('test_multiple_content_types: text, image, resource', async () => {
    expect((await call('test_multiple_content_types', { arguments: {} })).content).toEqual([
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: TEST_IMAGE_BASE64, mimeType: 'image/png' },
      {
        type: 'resource',
        resource: {
          uri: 'test://mixed-content-resource',
          mimeType: 'application/json',
          text: '{"test":"data","value":123}',
        },
      },
    ]);
  });

  it('test_error_handling is an isError result, not a JSON-RPC error', async () => {
    const r = await client.raw('tools/call', { name: 'test_error_handling', arguments: {} });
    expect('result' in r && r.result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }],
    });
  });

  it('test_tool_with_progress sends 0, 50, 100 of 100 with the token, then the result', async () => {
    const r = await call('test_tool_with_progress', { arguments: {}, _meta: { progressToken: 'progress-test-1' } });
    expect(r.content).toEqual([{ type: 'text', text: 'Progress reported: 0, 50 and 100 of 100.' }]);
    const progress = client.notifications.filter((n) => n.method === 'notifications/progress').map((n) => n.params);
    expect(progress).toEqual(
      [0, 50, 100].map((p) => ({
        progressToken: 'progress-test-1',
        progress: p,
        total: 100,
        message: `Completed step ${p} of 100`,
      })),
    );
  });

  it('test_tool_with_progress sends nothing without a progressToken', async () => {
    await call('test_tool_with_progress', { arguments: {} });
    expect(client.notifications.filter((n) => n.method === 'notifications/progress')).toEqual([]);
  });

  it('test_reconnection completes with its text', async () => {
    expect((await call('test_reconnection', { arguments: {} })).content).toEqual([
      {
        type: 'text',
        text: 'Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.',
      },
    ]);
  });

  it('json_schema_2020_12_tool validates with its verbatim schema', async () => {
    expect(
      (await call('json_schema_2020_12_tool', { arguments: { name: 'Ada', email: 'ada@example.com' } })).content,
    ).toEqual([
      { type: 'text', text: 'JSON Schema 2020-12 tool called with: {"name":"Ada","email":"ada@example.com"}' },
    ]);
    const bad = await call('json_schema_2020_12_tool', { arguments: { name: 'Ada', contactMethod: 'phone' } });
    expect(bad.isError).toBe(true);
  });

  it('test_x_mcp_header takes region and level', async () => {
    expect((await call('test_x_mcp_header', { arguments: { region: 'us-west1', level: 3 } })).content).toEqual([
      { type: 'text', text: 'region=us-west1, level=3' },
    ]);
  });

  it('prompts: simple, with arguments, embedded resource, image', async () => {
    expect((await client.request('prompts/get', { name: 'test_simple_prompt' })).messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } },
    ]);
    expect(
      (
        await client.request('prompts/get', {
          name: 'test_prompt_with_arguments',
          arguments: { arg1: 'testValue1', arg2: 'testValue2' },
        })
      ).messages,
    ).toEqual([
      { role: 'user', content: { type: 'text', text: "Prompt with arguments: arg1='testValue1', arg2='testValue2'" } },
    ]);
    expect(
      (
        await client.request('prompts/get', {
          name: 'test_prompt_with_embedded_resource',
          arguments: { resourceUri: 'test://example-resource' },
        })
      ).messages,
    ).toEqual([
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: {
            uri: 'test://example-resource',
            mimeType: 'text/plain',
            text: 'Embedded resource content for testing.',
          },
        },
      },
      { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
    ]);
    expect((await client.request('prompts/get', { name: 'test_prompt_with_image' })).messages).toEqual([
      { role: 'user', content: { type: 'image', data: TEST_IMAGE_BASE64, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ]);
  });

  it('a prompt without its required arguments is -32602', async () => {
    const r = await client.raw('prompts/get', { name: 'test_prompt_with_arguments', arguments: { arg1: 'x' } });
    expect('error' in r && r.error.code).toBe(-32602);
  });

  it('resources: static text, static binary, watched, template', async () => {
    const read = async (uri: string) => (await client.request('resources/read', { uri })).contents;
    expect(await read('test://static-text')).toEqual([
      { uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' },
    ]);
    expect(await read('test://static-binary')).toEqual([
      { uri: 'test://static-binary', mimeType: 'image/png', blob: TEST_IMAGE_BASE64 },
    ]);
    expect(await read('test://watched-resource')).toEqual([
      { uri: 'test://watched-resource', mimeType: 'text/plain', text: 'Watched resource content' },
    ]);
    expect(await read('test://template/123/data')).toEqual([
      {
        uri: 'test://template/123/data',
        mimeType: 'application/json',
        text: '{"id":"123","templateTest":true,"data":"Data for ID: 123"}',
      },
    ]);
  });

  it('an unknown resource is an error with data.uri, never empty contents (sep-2164)', async () => {
    const uri = 'test://nonexistent-resource-for-conformance-testing';
    const r = await client.raw('resources/read', { uri });
    expect('error' in r && r.error).toMatchObject({ code: era === 'modern' ? -32602 : -32002, data: { uri } });
  });

  it('completion/complete offers values for arg1 of test_prompt_with_arguments', async () => {
    const r = await client.request('completion/complete', {
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'test' },
    });
    expect(r.completion).toEqual({ values: ['test', 'testValue1', 'testing'], total: 3, hasMore: false });
  });
});

describe('legacy-only fixtures', () => {
  it('test_tool_with_logging sends three info messages after logging/setLevel debug', async () => {
    const { client } = await legacyClient(app);
    expect(await client.request('logging/setLevel', { level: 'debug' })).toEqual({});
    const r = await client.request('tools/call', { name: 'test_tool_with_logging', arguments: {} });
    expect(r.content).toEqual([{ type: 'text', text: 'Tool with logging executed successfully' }]);
    expect(client.notifications.filter((n) => n.method === 'notifications/message').map((n) => n.params)).toEqual([
      { level: 'info', data: 'Tool execution started' },
      { level: 'info', data: 'Tool processing data' },
      { level: 'info', data: 'Tool execution completed' },
    ]);
  });

  it('ping, subscribe and unsubscribe answer {}', async () => {
    const { client } = await legacyClient(app);
    expect(await client.request('ping')).toEqual({});
    expect(await client.request('resources/subscribe', { uri: 'test://watched-resource' })).toEqual({});
    expect(await client.request('resources/unsubscribe', { uri: 'test://watched-resource' })).toEqual({});
  });
});

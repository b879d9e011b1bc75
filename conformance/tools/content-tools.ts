/** `tools-call-*` scenarios (both eras): each content type, a tool error, progress and logging. */
import { Context, Tool, type CallToolResult } from '../../src';
import { sleep, TEST_AUDIO_BASE64, TEST_IMAGE_BASE64 } from '../media';

export class ContentTools {
  @Tool({ name: 'test_simple_text', description: 'Tests simple text content response' })
  simpleText(): string {
    return 'This is a simple text response for testing.';
  }

  @Tool({ name: 'test_image_content', description: 'Tests image content response' })
  imageContent(): CallToolResult {
    return { content: [{ type: 'image', data: TEST_IMAGE_BASE64, mimeType: 'image/png' }] };
  }

  @Tool({ name: 'test_audio_content', description: 'Tests audio content response' })
  audioContent(): CallToolResult {
    return { content: [{ type: 'audio', data: TEST_AUDIO_BASE64, mimeType: 'audio/wav' }] };
  }

  @Tool({ name: 'test_embedded_resource', description: 'Tests embedded resource content response' })
  embeddedResource(): CallToolResult {
    return {
      content: [
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ],
    };
  }

  @Tool({
    name: 'test_multiple_content_types',
    description: 'Tests response with multiple content types (text, image, resource)',
  })
  multipleContentTypes(): CallToolResult {
    return {
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: TEST_IMAGE_BASE64, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 }),
          },
        },
      ],
    };
  }

  /** A thrown error is the tool's failure: the framework answers an isError result, not a JSON-RPC error. */
  @Tool({ name: 'test_error_handling', description: 'Tests error response handling' })
  errorHandling(): never {
    throw new Error('This tool intentionally returns an error for testing');
  }

  @Tool({ name: 'test_tool_with_progress', description: 'Tests tool that reports progress notifications' })
  async withProgress(ctx: Context): Promise<string> {
    for (const step of [0, 50, 100]) {
      await ctx.progress(step, 100, `Completed step ${step} of 100`);
      if (step < 100) await sleep(50);
    }
    return 'Progress reported: 0, 50 and 100 of 100.';
  }

  /** Legacy `tools-call-with-logging`: the session's logging/setLevel decides what goes out. */
  @Tool({ name: 'test_tool_with_logging', description: 'Tests tool that emits log messages during execution' })
  async withLogging(ctx: Context): Promise<string> {
    await ctx.log('info', 'Tool execution started');
    await sleep(50);
    await ctx.log('info', 'Tool processing data');
    await sleep(50);
    await ctx.log('info', 'Tool execution completed');
    return 'Tool with logging executed successfully';
  }
}

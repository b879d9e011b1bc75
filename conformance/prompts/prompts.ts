/** `prompts-*` and `completion-complete` scenarios (both eras). */
import { IsString } from 'class-validator';
import { Complete, Field, Prompt, type GetPromptResult } from '../../src';
import { TEST_IMAGE_BASE64 } from '../media';

class PromptArgs {
  @Field({ description: 'First test argument' }) @IsString() arg1!: string;
  @Field({ description: 'Second test argument' }) @IsString() arg2!: string;
}

class EmbeddedResourceArgs {
  @Field({ description: 'URI of the resource to embed' }) @IsString() resourceUri!: string;
}

/** Values offered for `arg1`; the runner only needs an array, people get a prefix filter. */
const ARG1_SUGGESTIONS = ['test', 'testValue1', 'testing', 'example'];

export class ConformancePrompts {
  @Prompt({ name: 'test_simple_prompt', description: 'A simple prompt without arguments' })
  simple(): string {
    return 'This is a simple prompt for testing.';
  }

  @Prompt({ name: 'test_prompt_with_arguments', description: 'A prompt with required arguments' })
  withArguments(args: PromptArgs): string {
    return `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'`;
  }

  @Prompt({ name: 'test_prompt_with_embedded_resource', description: 'A prompt that includes an embedded resource' })
  withEmbeddedResource(args: EmbeddedResourceArgs): GetPromptResult {
    return {
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: { uri: args.resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
          },
        },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ],
    };
  }

  @Prompt({ name: 'test_prompt_with_image', description: 'A prompt that includes image content' })
  withImage(): GetPromptResult {
    return {
      messages: [
        { role: 'user', content: { type: 'image', data: TEST_IMAGE_BASE64, mimeType: 'image/png' } },
        { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
      ],
    };
  }

  @Complete({ prompt: 'test_prompt_with_arguments', argument: 'arg1' })
  completeArg1(value: string): string[] {
    return ARG1_SUGGESTIONS.filter((s) => s.startsWith(value));
  }
}

import { MetadataStore } from '../metadata/store';
import type { PromptOptions } from '../metadata/options';
import { recordingDecorator } from './method-decorator';

/** Marks a method as an MCP prompt. Arguments come from the first parameter's DTO type. */
export function Prompt(options: PromptOptions = {}): MethodDecorator {
  return recordingDecorator(MetadataStore.addPrompt, options);
}

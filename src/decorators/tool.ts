import { MetadataStore } from '../metadata/store';
import type { ToolOptions } from '../metadata/options';
import { recordingDecorator } from './method-decorator';

/** Marks a method as an MCP tool. Arguments come from the first parameter's DTO type. */
export function Tool(options: ToolOptions = {}): MethodDecorator {
  return recordingDecorator(MetadataStore.addTool, options);
}

import { MetadataStore } from '../metadata/store';
import type { CompletionTarget } from '../metadata/options';
import { recordingDecorator } from './method-decorator';

/**
 * Marks a method `(value: string, context: {arguments}) => string[] | CompletionValues` as the
 * completer of a prompt argument or a resource-template variable.
 */
export function Complete(target: CompletionTarget): MethodDecorator {
  return recordingDecorator(MetadataStore.addCompletion, target);
}

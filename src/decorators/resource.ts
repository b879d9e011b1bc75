import { MetadataStore } from '../metadata/store';
import type { ResourceOptions, ResourceTemplateOptions } from '../metadata/options';
import { recordingDecorator } from './method-decorator';

/** Marks a method as the reader of one fixed-URI resource. */
export function Resource(options: ResourceOptions): MethodDecorator {
  return recordingDecorator(MetadataStore.addResource, options);
}

/** Marks a method as the reader of an RFC 6570 templated resource; it receives the variables. */
export function ResourceTemplate(options: ResourceTemplateOptions): MethodDecorator {
  return recordingDecorator(MetadataStore.addResourceTemplate, options);
}

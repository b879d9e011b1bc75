/** `resources-*` scenarios: two static resources, a watched one (subscribe) and a template. */
import { Resource, ResourceTemplate } from '../../src';
import { TEST_IMAGE_BASE64 } from '../media';

export class ConformanceResources {
  @Resource({
    uri: 'test://static-text',
    name: 'static-text',
    title: 'Static Text Resource',
    description: 'A static text resource for testing',
    mimeType: 'text/plain',
  })
  staticText(): string {
    return 'This is the content of the static text resource.';
  }

  @Resource({
    uri: 'test://static-binary',
    name: 'static-binary',
    title: 'Static Binary Resource',
    description: 'A static binary resource (image) for testing',
    mimeType: 'image/png',
  })
  staticBinary(): Uint8Array {
    return Buffer.from(TEST_IMAGE_BASE64, 'base64');
  }

  @Resource({
    uri: 'test://watched-resource',
    name: 'watched-resource',
    title: 'Watched Resource',
    description: 'A resource clients can subscribe to',
    mimeType: 'text/plain',
  })
  watched(): string {
    return 'Watched resource content';
  }

  @ResourceTemplate({
    uriTemplate: 'test://template/{id}/data',
    name: 'template',
    title: 'Resource Template',
    description: 'A resource template with parameter substitution',
    mimeType: 'application/json',
  })
  templated(variables: { id: string }): string {
    return JSON.stringify({ id: variables.id, templateTest: true, data: `Data for ID: ${variables.id}` });
  }
}

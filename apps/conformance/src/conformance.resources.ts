import { Injectable } from '@nestjs/common';
import { McpArgs, McpResource, McpResourceTemplate } from '@app/mcp';
import { RED_PIXEL_PNG } from './media';

/** The resources the official conformance suite reads and subscribes to. */
@Injectable()
export class ConformanceResources {
  @McpResource({
    uri: 'test://static-text',
    name: 'static-text',
    description: 'A static text resource.',
    mimeType: 'text/plain',
  })
  staticText() {
    return 'This is the content of the static text resource.';
  }

  @McpResource({
    uri: 'test://static-binary',
    name: 'static-binary',
    description: 'A static binary resource.',
    mimeType: 'image/png',
  })
  staticBinary() {
    return Buffer.from(RED_PIXEL_PNG, 'base64');
  }

  @McpResource({
    uri: 'test://watched-resource',
    name: 'watched-resource',
    description: 'A resource to subscribe to.',
    mimeType: 'text/plain',
  })
  watched() {
    return 'Watched resource content.';
  }

  @McpResourceTemplate({
    uriTemplate: 'test://template/{id}/data',
    name: 'template-data',
    description: 'Data by id.',
    mimeType: 'application/json',
  })
  template(@McpArgs('id') id: string) {
    return JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` });
  }
}

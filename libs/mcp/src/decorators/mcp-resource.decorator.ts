import { SetMetadata } from '@nestjs/common';
import { MCP_RESOURCE_METADATA, MCP_RESOURCE_TEMPLATE_METADATA } from '../mcp.constants';
import { McpResourceOptions, McpResourceTemplateOptions } from './decorator-options.interface';

/**
 * Publishes a provider method as a fixed-URI resource. The method returns a string (text with the
 * declared `mimeType`), a `Buffer`/`Uint8Array` (sent as `blob`), or `{ contents: [...] }`.
 *
 * @example @McpResource({ uri: 'orders://catalog/products', name: 'products', mimeType: 'application/json' })
 */
export const McpResource = (options: McpResourceOptions): MethodDecorator =>
  SetMetadata(MCP_RESOURCE_METADATA, options);

/**
 * Publishes a provider method as an RFC 6570 resource template. The variables matched from the
 * requested URI are the method's `@McpArgs()`.
 *
 * @example @McpResourceTemplate({ uriTemplate: 'orders://orders/{id}', name: 'order', mimeType: 'application/json' })
 */
export const McpResourceTemplate = (options: McpResourceTemplateOptions): MethodDecorator =>
  SetMetadata(MCP_RESOURCE_TEMPLATE_METADATA, options);

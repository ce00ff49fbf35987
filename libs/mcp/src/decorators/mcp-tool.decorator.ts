import { SetMetadata } from '@nestjs/common';
import { MCP_TOOL_METADATA } from '../mcp.constants';
import { McpToolOptions } from './decorator-options.interface';

/**
 * Publishes a provider method as an MCP tool. The method runs through Nest's pipeline (guards,
 * interceptors, pipes, filters) on every `tools/call`.
 *
 * @example
 * @McpTool({ description: 'Finds tickets by text.', input: SearchTicketsDto, annotations: { readOnlyHint: true } })
 * search(@McpArgs() args: SearchTicketsDto) { ... }
 */
export const McpTool = (options: McpToolOptions): MethodDecorator => SetMetadata(MCP_TOOL_METADATA, options);

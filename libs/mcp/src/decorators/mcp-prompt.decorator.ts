import { SetMetadata } from '@nestjs/common';
import { MCP_PROMPT_METADATA } from '../mcp.constants';
import { McpPromptOptions } from './decorator-options.interface';

/**
 * Publishes a provider method as an MCP prompt. The method receives the string arguments
 * (`@McpArgs()`) and returns a `GetPromptResult`, a message array, or a single string (one user message).
 *
 * @example
 * @McpPrompt({ description: 'Triage a ticket.', arguments: [{ name: 'ticketId', required: true }] })
 * triage(@McpArgs('ticketId') id: string) { return `Triage ticket ${id}...`; }
 */
export const McpPrompt = (options: McpPromptOptions): MethodDecorator => SetMetadata(MCP_PROMPT_METADATA, options);

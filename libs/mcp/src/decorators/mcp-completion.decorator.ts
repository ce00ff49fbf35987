import { SetMetadata } from '@nestjs/common';
import { MCP_COMPLETION_METADATA } from '../mcp.constants';
import { McpCompletionOptions } from './decorator-options.interface';

/**
 * Completes one prompt argument or template variable for `completion/complete`. The method receives
 * the partial value and the other arguments already given, and returns candidate strings (the engine
 * keeps at most 100).
 *
 * @example
 * @McpCompletion({ prompt: 'triage_ticket', argument: 'priority' })
 * priorities(value: string) { return ['low', 'normal', 'urgent'].filter((p) => p.startsWith(value)); }
 */
export const McpCompletion = (options: McpCompletionOptions): MethodDecorator =>
  SetMetadata(MCP_COMPLETION_METADATA, options);

import { SetMetadata } from '@nestjs/common';
import { MCP_SCOPES_METADATA } from '../mcp.constants';

/**
 * Requires every listed scope (from the token's `scope`/`scp` claim) to call a tool, get a prompt or
 * read a resource; on a class, applies to all its MCP methods (merged with method-level scopes).
 * Callers without them get HTTP 403 with `error="insufficient_scope"`, and the lists hide what they
 * cannot call. Enforced by a guard in each call's Nest pipeline.
 *
 * @example @McpScopes('tickets:write') @McpTool({...}) create(...) {}
 */
export const McpScopes = (...scopes: string[]): ClassDecorator & MethodDecorator =>
  SetMetadata(MCP_SCOPES_METADATA, scopes);

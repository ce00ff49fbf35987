import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { MCP_CONTEXT_TYPE, MCP_SCOPES_METADATA } from '../mcp.constants';
import { McpExecutionContext } from '../context/mcp-execution-context';
import { InsufficientScopeError } from './insufficient-scope.error';
import { hasScopes } from './scopes';

/**
 * Per-call authorization: the scopes of `@McpScopes` (method and class) must all be in the caller's
 * token. Registered globally; it only looks at MCP calls, and lets stdio (no principal) through.
 * @internal
 */
@Injectable()
export class McpScopesGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType<string>() !== MCP_CONTEXT_TYPE) return true;
    const required = [
      ...new Set(
        this.reflector.getAllAndMerge<string[]>(MCP_SCOPES_METADATA, [context.getHandler(), context.getClass()]),
      ),
    ].sort();
    if (!required.length) return true;
    const principal = McpExecutionContext.create(context).getContext().principal;
    if (!principal || hasScopes(principal, required)) return true;
    throw new InsufficientScopeError(required);
  }
}

import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { MCP_CONTEXT_TYPE, MCP_SCOPES_METADATA } from '../mcp.constants';
import { McpExecutionContext } from '../context/mcp-execution-context';
import { InsufficientScopeError } from '../auth/insufficient-scope.error';
import { hasScopes } from '../auth/scopes';

/**
 * Per-call authorization: the scopes of `@McpScopes` (method and class) must all be in the caller's
 * token. Registered globally; it only looks at MCP calls, and lets stdio (no principal) through.
 * @internal
 */
@Injectable()
export class McpScopesGuard implements CanActivate {
  /** Decorator metadata does not change after boot: the sorted scopes, per handler and class, read once. */
  private readonly required = new WeakMap<object, WeakMap<object, string[]>>();

  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType<string>() !== MCP_CONTEXT_TYPE) return true;
    const required = this.requiredFor(context.getHandler(), context.getClass());
    if (!required.length) return true;
    const principal = McpExecutionContext.create(context).getContext().principal;
    if (!principal || hasScopes(principal, required)) return true;
    throw new InsufficientScopeError(required);
  }

  private requiredFor(handler: object, type: object): string[] {
    let byClass = this.required.get(handler);
    if (!byClass) this.required.set(handler, (byClass = new WeakMap()));
    let required = byClass.get(type);
    if (!required) {
      const declared = this.reflector.getAllAndMerge<string[]>(MCP_SCOPES_METADATA, [handler as never, type as never]);
      byClass.set(type, (required = [...new Set(declared)].sort()));
    }
    return required;
  }
}

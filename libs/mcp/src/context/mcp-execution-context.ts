import { ExecutionContext } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host.js';
import { McpCallContext } from './call-context.interface';

/**
 * The MCP view of an `ExecutionContext`, like `GqlExecutionContext`: use it in guards,
 * interceptors and param decorators when `context.getType() === 'mcp'`.
 *
 * @example
 * canActivate(context: ExecutionContext) {
 *   const mcp = McpExecutionContext.create(context);
 *   return mcp.getContext().target !== 'delete_everything';
 * }
 */
export class McpExecutionContext extends ExecutionContextHost {
  static create(context: ExecutionContext): McpExecutionContext {
    const ctx = new McpExecutionContext(context.getArgs(), context.getClass(), context.getHandler());
    ctx.setType(context.getType());
    return ctx;
  }

  /** Validated tool arguments, prompt arguments or template variables. */
  getArguments<T = Record<string, unknown>>(): T {
    return this.getArgByIndex(0) as T;
  }

  /** The call context: ids, session, client, signal and helpers. */
  getContext(): McpCallContext {
    return this.getArgByIndex(1) as McpCallContext;
  }
}

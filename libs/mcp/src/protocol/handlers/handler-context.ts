import { McpRegistry } from '../../registry/mcp.registry';
import { InvocationScope } from '../../pipeline/invocation-scope';
import { McpTasks } from '../../tasks/mcp-tasks.service';

/** What a method handler gets for one request: the invocation scope, the params and the registry. @internal */
export interface RequestScope extends InvocationScope {
  params: Record<string, unknown>;
  registry: McpRegistry;
  /** Tasks of both eras: created by task tools' calls, found, answered and cancelled by `tasks/*`. */
  tasks: McpTasks;
}

/** A handler answers with a result object or a result already serialised to JSON text. @internal */
export type MethodResult = Record<string, unknown> | { raw: string };
export type MethodHandler = (scope: RequestScope) => Promise<MethodResult> | MethodResult;

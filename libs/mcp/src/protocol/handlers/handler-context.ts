import { McpRegistry } from '../../registry/mcp.registry';
import { RequestContext } from '../../pipeline/request-context';
import { McpTasks } from '../../tasks/mcp-tasks.service';

/** What a method handler gets for one request: its RequestContext, the params, the registry and the tasks. @internal */
export interface HandlerContext extends RequestContext {
  params: Record<string, unknown>;
  registry: McpRegistry;
  /** Tasks of both eras: created by task tools' calls, found, answered and cancelled by `tasks/*`. */
  tasks: McpTasks;
}

/** A handler answers with a result object or a result already serialised to JSON text. @internal */
export type MethodResult = Record<string, unknown> | { raw: string };
export type MethodHandler = (request: HandlerContext) => Promise<MethodResult> | MethodResult;

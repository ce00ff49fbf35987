import { McpRegistry } from '../../registry/mcp.registry';
import { InvocationScope } from '../../pipeline/invocation-scope';

/** What a method handler gets for one request: the invocation scope, the params and the registry. @internal */
export interface RequestScope extends InvocationScope {
  params: Record<string, unknown>;
  registry: McpRegistry;
}

/** A handler answers with a result object or a result already serialised to JSON text. @internal */
export type MethodResult = Record<string, unknown> | { raw: string };
export type MethodHandler = (scope: RequestScope) => Promise<MethodResult> | MethodResult;

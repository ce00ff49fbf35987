import { ResolvedMcpOptions } from '../../interfaces/mcp-module-options.interface';
import { McpRegistry } from '../../registry/mcp.registry';
import { CallLimiter } from '../../limits/call-limiter';
import { McpPrincipal } from '../../auth/mcp-principal';
import { JsonRpcRequest } from '../../wire/json-rpc';
import { McpSession } from '../../sessions/mcp-session';
import { MessageSink } from '../../wire/message-sink';

/** What a method handler gets for one request. @internal */
export interface RequestScope {
  /** Correlation id of the request (X-Request-Id over HTTP, generated over stdio). */
  requestId: string | undefined;
  /** The authenticated caller of this request, if any. */
  principal: McpPrincipal | undefined;
  /** Aborts this request's signal (timeouts). */
  abort(reason: unknown): void;
  request: JsonRpcRequest;
  params: Record<string, unknown>;
  session: McpSession;
  sink: MessageSink;
  signal: AbortSignal;
  registry: McpRegistry;
  options: ResolvedMcpOptions;
  limiter: CallLimiter;
}

/** A handler answers with a result object or a result already serialised to JSON text. @internal */
export type MethodResult = Record<string, unknown> | { raw: string };
export type MethodHandler = (scope: RequestScope) => Promise<MethodResult> | MethodResult;

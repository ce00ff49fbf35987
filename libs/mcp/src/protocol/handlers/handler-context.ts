import { ResolvedMcpOptions } from '../../interfaces/mcp-module-options.interface';
import { McpRegistry } from '../../registry/mcp.registry';
import { JsonRpcRequest } from '../json-rpc';
import { McpSession } from '../mcp-session';
import { MessageSink } from '../message-sink';

/** What a method handler gets for one request. @internal */
export interface RequestScope {
  request: JsonRpcRequest;
  params: Record<string, unknown>;
  session: McpSession;
  sink: MessageSink;
  signal: AbortSignal;
  registry: McpRegistry;
  options: ResolvedMcpOptions;
}

/** A handler answers with a result object or a result already serialised to JSON text. @internal */
export type MethodResult = Record<string, unknown> | { raw: string };
export type MethodHandler = (scope: RequestScope) => Promise<MethodResult> | MethodResult;

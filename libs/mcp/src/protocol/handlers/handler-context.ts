import { McpRegistry } from '../../registry/mcp.registry';
import { RequestContext } from '../../pipeline/request-context';
import { McpTasks } from '../../tasks/mcp-tasks.service';
import { McpSession } from '../../sessions/mcp-session';
import { InvalidParamsError, McpError } from '../../errors/mcp.error';
import { ErrorCode } from '../../wire/json-rpc';

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

/**
 * The 2025 session a request runs in, for the methods only a session has (`logging/setLevel`,
 * `resources/(un)subscribe`). They are routed from the session-era table alone, so the peer of a 2026-07-28 request
 * never reaches them; were it to, it would get `-32601` like any method its era lacks.
 * @internal
 */
export function sessionOf(request: HandlerContext): McpSession {
  if (request.peer instanceof McpSession) return request.peer;
  throw new McpError(ErrorCode.MethodNotFound, 'Method not found');
}

/** `params.uri` of a resource or skill method: a non-empty string of at most 2,048 characters, else `-32602`. */
export function uriParam(params: Record<string, unknown>): string {
  if (typeof params.uri !== 'string' || params.uri.length === 0 || params.uri.length > 2048) {
    throw new InvalidParamsError('Invalid params: uri must be a non-empty string', {
      field: 'uri',
      reason: 'required',
    });
  }
  return params.uri;
}

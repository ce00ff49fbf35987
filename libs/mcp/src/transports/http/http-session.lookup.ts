import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpSessionManager } from '../../sessions/mcp-session.manager';
import { McpSession } from '../../sessions/mcp-session';
import { ErrorCode, JsonRpcId } from '../../wire/json-rpc';
import { bindPrincipal } from '../../sessions/session-binding';
import { sendHttpError } from '../../errors/send-http-error';
import { storeUnavailable } from './http-refusals';

/**
 * The 2025 session a request names in `Mcp-Session-Id`, bound to the request's caller; or undefined after answering
 * 400 (no id), 404 (unknown, expired, or a legacy SSE session) or 503 (the store cannot be reached) itself.
 * @internal
 */
export async function findHttpSession(
  sessions: McpSessionManager,
  id: string | undefined,
  req: IncomingMessage,
  res: ServerResponse,
  rpcId: JsonRpcId | null = null,
): Promise<McpSession | undefined> {
  if (!id) {
    sendHttpError(res, 400, ErrorCode.InvalidRequest, 'Bad Request: Mcp-Session-Id header is required', {}, rpcId);
    return undefined;
  }
  let found: McpSession | undefined;
  try {
    found = id.length <= 128 ? await sessions.find(id) : undefined;
  } catch (error) {
    storeUnavailable(res, error);
    return undefined;
  }
  const session = found?.legacySse ? undefined : found;
  if (!session) {
    sendHttpError(
      res,
      404,
      ErrorCode.InvalidRequest,
      'Not Found: session unknown or expired; initialize a new one',
      {},
      rpcId,
    );
    return undefined;
  }
  bindPrincipal(session, req);
  return session;
}

import type { ServerResponse } from 'node:http';
import { sendJson } from '../http-adapter/json-response';
import { JsonRpcId, errorResponse } from '../wire/json-rpc';

/**
 * Writes a JSON-RPC error as the whole HTTP answer, with the request's id when the body could be read (`id`), else
 * `null`. @internal
 */
export function sendHttpError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  id: JsonRpcId | null = null,
  data?: Record<string, unknown>,
): void {
  if (res.headersSent) return;
  const requestId = typeof res.getHeader === 'function' ? res.getHeader('X-Request-Id') : undefined;
  const withId = typeof requestId === 'string' ? { ...data, requestId } : data;
  sendJson(res, status, headers, JSON.stringify(errorResponse(id, code, message, withId)));
}

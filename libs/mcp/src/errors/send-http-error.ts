import type { ServerResponse } from 'node:http';
import { sendJson } from '../http-adapter/json-response';
import { responseRequestId } from '../http-adapter/request-id';
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
  const requestId = responseRequestId(res);
  const withId = requestId !== undefined ? { ...data, requestId } : data;
  sendJson(res, status, headers, JSON.stringify(errorResponse(id, code, message, withId)));
}

import { Logger } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode } from '../../wire/json-rpc';
import { isModernVersion } from '../../wire/protocol-version';
import { sendHttpError } from '../../errors/send-http-error';
import { toJsonRpcError } from '../../errors/error-mapper';
import { RateLimitedError } from '../../errors/mcp.error';

const logger = new Logger('McpHttp');

/**
 * GET and DELETE serve only the 2025 sessions (corporate v2.0 Annex D); asked in 2026-07-28 terms they have no
 * function: 405 with `Allow: POST` (change notifications come from `subscriptions/listen`).
 * @internal
 */
export function noModernFunction(req: IncomingMessage, res: ServerResponse, method: string): boolean {
  if (!isModernVersion(req.headers['mcp-protocol-version'])) return false;
  sendHttpError(res, 405, ErrorCode.InvalidRequest, `Method Not Allowed: ${method} has no function in 2026-07-28`, {
    Allow: 'POST',
  });
  return true;
}

/** The session store cannot be reached (Redis down): a clear 503 the client retries, never a hang or a stack. */
export function storeUnavailable(res: ServerResponse, error: unknown, what = 'session store'): void {
  logger.warn(`${what} unavailable: ${(error as Error).message}`);
  sendHttpError(res, 503, ErrorCode.UpstreamUnavailable, `Unavailable: the ${what} cannot be reached; retry shortly`, {
    'Retry-After': '2',
  });
}

/**
 * A limit's or a store's refusal as the whole answer: 429 for `-32003`, 503 otherwise, with `Retry-After` from the
 * error's `data.retryAfter` (1 when it has none) and its `data` in the JSON-RPC error.
 */
export function sendRefusal(res: ServerResponse, error: unknown, what: string): void {
  const e = toJsonRpcError(error, what);
  const data = e.data as Record<string, unknown> | undefined;
  const retryAfter = String((data?.retryAfter as number | undefined) ?? 1);
  const status = e.code === ErrorCode.RateLimited ? 429 : 503;
  sendHttpError(res, status, e.code, e.message, { 'Retry-After': retryAfter }, null, data);
}

/** 429 `-32003` for a caller over its request budget, refused before its body is read. */
export function tooManyRequests(res: ServerResponse, retryAfterSec: number): void {
  sendRefusal(res, new RateLimitedError(retryAfterSec, 'Rate limited: too many requests; retry later'), 'POST');
}

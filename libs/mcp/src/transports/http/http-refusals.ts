import { Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ErrorCode } from '../../wire/json-rpc';
import { isModernVersion } from '../../wire/protocol-version';
import { sendHttpError } from './http-checks';

const logger = new Logger('McpHttp');

/**
 * GET and DELETE serve only the 2025 sessions (corporate v2.0 Annex D); asked in 2026-07-28 terms they have no
 * function: 405 with `Allow: POST` (change notifications come from `subscriptions/listen`).
 * @internal
 */
export function noModernFunction(req: Request, res: Response, method: string): boolean {
  if (!isModernVersion(req.headers['mcp-protocol-version'])) return false;
  sendHttpError(res, 405, ErrorCode.InvalidRequest, `Method Not Allowed: ${method} has no function in 2026-07-28`, {
    Allow: 'POST',
  });
  return true;
}

/** The session store cannot be reached (Redis down): a clear 503 the client retries, never a hang or a stack. */
export function storeUnavailable(res: Response, error: unknown, what = 'session store'): void {
  logger.warn(`${what} unavailable: ${(error as Error).message}`);
  sendHttpError(res, 503, ErrorCode.UpstreamUnavailable, `Unavailable: the ${what} cannot be reached; retry shortly`, {
    'Retry-After': '2',
  });
}

/** 429 `-32003` for a caller over its request budget, refused before its body is read. */
export function tooManyRequests(res: Response, retryAfterSec: number): void {
  sendHttpError(
    res,
    429,
    ErrorCode.RateLimited,
    'Rate limited: too many requests; retry later',
    { 'Retry-After': String(retryAfterSec) },
    null,
    { reason: 'rate_limited', retryAfter: retryAfterSec },
  );
}

import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Accepted `X-Request-Id` values: bounded, safe characters only; anything else is replaced. */
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const KEY = Symbol('mcpRequestId');

/**
 * The correlation id of an HTTP request, decided once: the caller's `X-Request-Id` when it is
 * safe, a fresh UUID otherwise; set on the response. Whichever middleware asks first (the access
 * log or the MCP entry middleware) decides, so logs, spans and `error.data` agree.
 * @internal
 */
export function requestIdFor(req: IncomingMessage, res?: ServerResponse): string {
  const holder = req as IncomingMessage & { [KEY]?: string };
  let id = holder[KEY];
  if (id === undefined) {
    const given = req.headers['x-request-id'];
    id = typeof given === 'string' && SAFE_ID.test(given) ? given : randomUUID();
    holder[KEY] = id;
  }
  if (res && !res.headersSent && !res.hasHeader('X-Request-Id')) res.setHeader('X-Request-Id', id);
  return id;
}

/** The correlation id of a request, if one was decided. @internal */
export const existingRequestId = (req: IncomingMessage): string | undefined =>
  (req as IncomingMessage & { [KEY]?: string })[KEY];

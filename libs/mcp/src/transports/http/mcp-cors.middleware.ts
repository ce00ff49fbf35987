import { Injectable, NestMiddleware } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendHttpError } from '../../errors/send-http-error';
import { ErrorCode } from '../../wire/json-rpc';
import { McpOriginGuard } from '../../auth/origin.guard';
import { EXPOSE_HEADERS } from '../../auth/origin-host.checks';

const ALLOW_HEADERS =
  'Authorization, Content-Type, Accept, Mcp-Session-Id, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID, ' +
  'X-Request-Id, traceparent, tracestate';
/** A 2026-07-28 tool argument mirrored in a header (`x-mcp-header`): its name is the tool's choice. */
const PARAM_HEADER = /^mcp-param-[!#$%&'*+.^_`|~0-9a-z-]+$/;

/** The allowed headers, plus the `Mcp-Param-*` headers this preflight asks for (there is no wildcard for them). */
function allowHeaders(requested: string | undefined): string {
  const params = (requested ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => PARAM_HEADER.test(h))
    .slice(0, 32);
  return params.length ? `${ALLOW_HEADERS}, ${params.join(', ')}` : ALLOW_HEADERS;
}

/**
 * CORS preflights on the platform's routes: an `OPTIONS` request carries no credentials and matches no route, so it is
 * answered here, with the same Origin and Host checks as McpOriginGuard (which guards every other request on those
 * routes, after routing); allowed origins get `Access-Control-*` headers echoing the origin, never `*`.
 * @internal
 */
@Injectable()
export class McpCorsMiddleware implements NestMiddleware {
  /** The same Origin and Host allow-lists as every other request on the platform's routes. */
  constructor(private readonly origins: McpOriginGuard) {}

  use(req: IncomingMessage, res: ServerResponse, next: () => void): void {
    if (req.method !== 'OPTIONS') return next();
    const refusal = this.origins.refusalOf(req);
    if (refusal) return sendHttpError(res, refusal.status, ErrorCode.InvalidRequest, refusal.message);
    const origin = req.headers.origin;
    res.writeHead(204, {
      Allow: 'GET, POST, DELETE, OPTIONS',
      ...(origin !== undefined
        ? {
            'Access-Control-Allow-Origin': origin,
            'Access-Control-Expose-Headers': EXPOSE_HEADERS,
            Vary: 'Origin',
            'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
            'Access-Control-Allow-Headers': allowHeaders(req.headers['access-control-request-headers']),
            'Access-Control-Max-Age': '600',
          }
        : {}),
    });
    res.end();
  }
}

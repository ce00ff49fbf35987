import { Injectable, NestMiddleware } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

/** Accepted `X-Request-Id` values: bounded, safe characters only; anything else is replaced. */
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives every request on the MCP endpoints a correlation id: the caller's `X-Request-Id` when it is
 * safe, a fresh UUID otherwise. It is returned on the response and carried into `error.data.requestId`.
 * @internal
 */
@Injectable()
export class McpRequestIdMiddleware implements NestMiddleware {
  use(req: Request, res: Response, next: NextFunction): void {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && SAFE_ID.test(given) ? given : randomUUID();
    (req as { mcpRequestId?: string }).mcpRequestId = id;
    res.setHeader('X-Request-Id', id);
    next();
  }
}

/** The correlation id of a request on the MCP endpoints. @internal */
export const requestIdOf = (req: Request): string | undefined => (req as { mcpRequestId?: string }).mcpRequestId;

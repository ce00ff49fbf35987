import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { existingRequestId, requestIdFor } from '../../observability/request-id';

/**
 * Gives every HTTP request a correlation id (see {@link requestIdFor}), returned in `X-Request-Id`
 * and carried into logs, spans and `error.data.requestId`.
 * @internal
 */
@Injectable()
export class McpRequestIdMiddleware implements NestMiddleware {
  use(req: Request, res: Response, next: NextFunction): void {
    requestIdFor(req, res);
    next();
  }
}

/** The correlation id of a request. @internal */
export const requestIdOf = (req: Request): string | undefined => existingRequestId(req);

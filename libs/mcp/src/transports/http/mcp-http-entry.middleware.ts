import { Inject, Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { MCP_MODULE_OPTIONS } from '../../mcp.constants';
import { ResolvedMcpOptions } from '../../interfaces/mcp-module-options.interface';
import { PROTECTED_RESOURCE_PATH } from '../../auth/resource-url';
import { requestIdFor } from '../../observability/request-id';
import { McpHttpTraceMiddleware } from '../../observability/mcp-http-trace.middleware';
import {
  SERVICE_PAGE_PATH,
  SERVICE_PAGE_SCRIPT_PATH,
  SERVICE_PAGE_STYLE_PATH,
} from '../../service-page/service-page.constants';
import { McpCorsMiddleware } from './mcp-cors.middleware';

/**
 * The one middleware in front of every route: the request id for all of them; on the MCP endpoints
 * also the request's trace span; on those, the protected-resource metadata and the service page,
 * the Origin/Host checks and CORS, before any guard. One layer instead of three: each Nest
 * middleware layer costs several microseconds per request, on every route.
 * Paths compare like Express routes do: case-insensitively, a trailing slash ignored.
 * @internal
 */
@Injectable()
export class McpHttpEntryMiddleware implements NestMiddleware {
  private readonly mcpPaths: Set<string>;
  private readonly checkedPaths: Set<string>;

  constructor(
    @Inject(MCP_MODULE_OPTIONS) options: ResolvedMcpOptions,
    private readonly trace: McpHttpTraceMiddleware,
    private readonly cors: McpCorsMiddleware,
  ) {
    const lower = (paths: string[]) => new Set(paths.map((p) => p.toLowerCase()));
    this.mcpPaths = lower(
      options.http || options.legacySse
        ? [...(options.http ? [options.path] : []), ...(options.legacySse ? ['/sse', '/messages'] : [])]
        : [],
    );
    this.checkedPaths = lower([
      PROTECTED_RESOURCE_PATH,
      ...(options.servicePage ? [SERVICE_PAGE_PATH, SERVICE_PAGE_SCRIPT_PATH, SERVICE_PAGE_STYLE_PATH] : []),
    ]);
  }

  use(req: Request, res: Response, next: NextFunction): void {
    // Express announces itself on every response; nothing outside needs to know the framework.
    res.removeHeader('X-Powered-By');
    requestIdFor(req, res);
    const path = normalise(req.originalUrl ?? req.url);
    if (this.mcpPaths.has(path)) return this.trace.use(req, res, () => this.cors.use(req, res, next));
    if (this.checkedPaths.has(path) || path.startsWith(`${PROTECTED_RESOURCE_PATH}/`))
      return this.cors.use(req, res, next);
    next();
  }
}

function normalise(url: string): string {
  const q = url.indexOf('?');
  let path = (q < 0 ? url : url.slice(0, q)).toLowerCase();
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  return path;
}

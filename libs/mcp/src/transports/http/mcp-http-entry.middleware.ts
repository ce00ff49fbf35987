import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { ErrorCode } from '../../wire/json-rpc';
import { sendHttpError } from '../../errors/send-http-error';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MCP_MODULE_OPTIONS } from '../../mcp.constants';
import { ResolvedMcpOptions } from '../../options/mcp-module-options.interface';
import { PROTECTED_RESOURCE_PATH } from '../../auth/resource-url';
import { announceRequestId, requestIdFor } from '../../http-adapter/request-id';
import { McpHttpTraceMiddleware } from '../../observability/mcp-http-trace.middleware';
import { McpAccessLog } from '../../observability/access-log.middleware';
import { runWithRequestId } from '../../observability/log-context';
import {
  SERVICE_PAGE_PATH,
  SERVICE_PAGE_SCRIPT_PATH,
  SERVICE_PAGE_STYLE_PATH,
} from '../../service-page/service-page.constants';
import { McpCorsMiddleware } from './mcp-cors.middleware';
import { literalPathOf, pathOf, requestTarget } from '../../http-adapter/node-http';
import { sendJson } from '../../http-adapter/json-response';

const ENTERED = Symbol('mcpEntered');

/**
 * Answers 500 (`-32603`) and returns true when a request to an MCP endpoint did not go through
 * {@link McpHttpEntryMiddleware} (its request id and trace span), as when the app replaced the platform's request
 * hook or serves the endpoint under a prefix the platform does not know: such a request is refused, never served
 * half-observed. (Its Origin and Host are checked after routing, by McpOriginGuard, whatever path it came by.)
 * @internal
 */
export function refusedWithoutEntry(req: IncomingMessage, res: ServerResponse): boolean {
  if ((req as { [ENTERED]?: true })[ENTERED] === true) return false;
  logger.error(
    "a request reached an MCP endpoint without passing the platform's entry checks, refused with 500: either the " +
      "HTTP adapter's request hook was replaced, or the endpoint is served under a path the platform does not know " +
      '(a global prefix: give McpModule the whole path as its `path` instead)',
  );
  sendHttpError(res, 500, ErrorCode.InternalError, 'Internal error');
  return true;
}
const logger = new Logger('McpHttp');

/**
 * The one layer in front of every route, installed as the HTTP adapter's request hook (see McpModule): the request id
 * for all of them; on the MCP endpoints also the request's trace span; on those, the protected-resource metadata and
 * the service page, CORS preflights (McpOriginGuard checks Origin and Host on every other request, after routing);
 * with `McpLoggerModule`, the access line and the request id of every log line written meanwhile. One hook instead of
 * four Nest middleware layers: each costs several microseconds per request, on every route (and middie's on Fastify).
 * Paths compare as the routers match them (see normalise); a platform path spelled with percent-escapes is 404.
 * @internal
 */
@Injectable()
export class McpHttpEntryMiddleware {
  private readonly mcpPaths: Set<string>;
  private readonly checkedPaths: Set<string>;

  constructor(
    @Inject(MCP_MODULE_OPTIONS) options: ResolvedMcpOptions,
    private readonly trace: McpHttpTraceMiddleware,
    private readonly cors: McpCorsMiddleware,
    /** With McpLoggerModule imported: the access line and the log lines' request id are done here, in one layer. */
    @Optional() private readonly accessLog?: McpAccessLog,
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

  use(req: IncomingMessage, res: ServerResponse, next: () => void): void {
    // Express announces itself on every response; nothing outside needs to know the framework.
    res.removeHeader('X-Powered-By');
    const id = requestIdFor(req);
    if (!this.accessLog) return this.route(req, res, id, next);
    this.accessLog.track(req, res, id);
    runWithRequestId(id, () => this.route(req, res, id, next));
  }

  private route(req: IncomingMessage, res: ServerResponse, id: string, next: () => void): void {
    const target = requestTarget(req);
    const path = normalise(pathOf(target));
    const kind = this.kindOf(path);
    // The MCP endpoints write each answer's head at once: their id goes with it (see announceRequestId).
    if (kind === 'mcp') announceRequestId(res, id);
    else requestIdFor(req, res);
    if (kind === undefined) return next();
    // Fastify's router decodes percent-escapes before it matches (`/%6Dcp` is `/mcp` to it), Express's does not (404):
    // a platform path spelled with escapes is 404 here on both, before either router sees it.
    if (target.includes('%') && normalise(literalPathOf(target)) !== path) return notFound(req, res);
    if (kind === 'mcp') {
      (req as { [ENTERED]?: true })[ENTERED] = true;
      return this.trace.use(req, res, () => this.cors.use(req, res, next));
    }
    this.cors.use(req, res, next);
  }

  /** What a path is to the platform: an MCP endpoint, another path it checks (metadata, service page), or neither. */
  private kindOf(path: string): 'mcp' | 'checked' | undefined {
    if (this.mcpPaths.has(path)) return 'mcp';
    if (this.checkedPaths.has(path) || path.startsWith(`${PROTECTED_RESOURCE_PATH}/`)) return 'checked';
    return undefined;
  }
}

/** The path lower-cased, a trailing slash dropped: as both routers match (case-insensitively, trailing / ignored). */
function normalise(path: string): string {
  const lower = path.toLowerCase();
  return lower.length > 1 && lower.endsWith('/') ? lower.slice(0, -1) : lower;
}

/** Nest's own answer to a path no route takes (`Cannot POST /%6dcp`), as Express gives it for an escaped spelling. */
function notFound(req: IncomingMessage, res: ServerResponse): void {
  const message = `Cannot ${req.method ?? 'GET'} ${requestTarget(req)}`;
  sendJson(res, 404, {}, JSON.stringify({ message, error: 'Not Found', statusCode: 404 }));
}

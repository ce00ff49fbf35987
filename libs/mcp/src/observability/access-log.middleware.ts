import { Inject, Injectable, NestMiddleware, Optional } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger as PinoLogger } from 'pino';
import { runWithRequestId } from './log-context';
import { McpLogger } from './mcp.logger';
import { requestIdFor, responseHeader } from '../http-adapter/request-id';
import { McpRefusalLog } from './refusal-log';
import { principalOf } from '../auth/mcp-principal';
import { clip } from './clip';

/** The access-log settings of `McpLoggerModule`. @internal */
export const MCP_ACCESS_LOG = Symbol('MCP_ACCESS_LOG');
/** @internal */
export interface AccessLogSettings {
  enabled: boolean;
  /** Lower-cased paths whose successful requests are logged at debug (the MCP endpoint). */
  quietPaths: ReadonlySet<string>;
}

/** Probe routes: a 503 there (draining, a dependency down) is an expected state, logged by the health service. */
const PROBE_PATHS: ReadonlySet<string> = new Set(['/health', '/ready']);

/** What the access line needs, kept on the response itself: one shared listener serves every request. */
interface Tracked {
  log: PinoLogger;
  refusals: McpRefusalLog | undefined;
  quietPaths: ReadonlySet<string>;
  started: number;
  id: string;
  req: IncomingMessage;
  done: boolean;
}
const TRACKED = Symbol('mcpAccessLog');
type TrackedResponse = ServerResponse & { [TRACKED]?: Tracked };

/**
 * The access line of every HTTP request (`request completed`: `req: { id, method, path }`, `res: { statusCode }`,
 * `responseTime`), written when the response ends: at debug for a successful request to the MCP endpoint (its tool
 * calls have entries of their own), error for 5xx. Never for a refusal: 401, 403, 429, a 503 with Retry-After and a
 * probe's 503 are logged by the refusing code, every other 4xx (400, 404, 406, 413, 415…) here, all aggregated per
 * source and status by {@link McpRefusalLog}, so a flood of them writes a line or two, not one per request (without
 * `McpModule`, a 4xx is a warn line). The path is cut to 256 characters: a 15 KB URL wrote a 15 KB line. Per request
 * this costs one shared listener and one small record, no child logger.
 *
 * When `McpModule` serves HTTP, its entry middleware (already in front of every route) calls {@link track};
 * otherwise {@link McpAccessLogMiddleware} does, so there is one middleware layer either way.
 * @internal
 */
@Injectable()
export class McpAccessLog {
  private readonly log: PinoLogger;

  constructor(
    logger: McpLogger,
    @Inject(MCP_ACCESS_LOG) private readonly settings: AccessLogSettings,
    @Optional() private readonly refusals?: McpRefusalLog,
  ) {
    this.log = logger.pino;
  }

  /** Starts the access line of a request whose id is `id`. */
  track(req: IncomingMessage, res: ServerResponse, id: string): void {
    if (!this.settings.enabled) return;
    (res as TrackedResponse)[TRACKED] = {
      log: this.log,
      refusals: this.refusals,
      quietPaths: this.settings.quietPaths,
      started: Date.now(),
      id,
      req,
      done: false,
    };
    // 'close' ends every response, complete (after 'finish') or cut short: one listener covers both.
    res.on('close', onResponseEnd);
  }
}

/**
 * The request id (current for everything the request runs, so any log line written meanwhile carries it as
 * `requestId`) and the access line, for an app whose HTTP routes are not behind `McpModule`'s entry middleware.
 * @internal
 */
@Injectable()
export class McpAccessLogMiddleware implements NestMiddleware {
  constructor(private readonly accessLog: McpAccessLog) {}

  use(req: IncomingMessage, res: ServerResponse, next: () => void): void {
    const id = requestIdFor(req, res);
    this.accessLog.track(req, res, id);
    runWithRequestId(id, next);
  }
}

function onResponseEnd(this: TrackedResponse): void {
  const tracked = this[TRACKED];
  if (!tracked || tracked.done) return;
  tracked.done = true;
  const { req, log } = tracked;
  const path = pathOnly((req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url);
  const level = accessLevel(req, this, path, tracked.quietPaths);
  if (level === undefined) return;
  if (level === 'warn' && tracked.refusals) {
    const source = principalOf(req)?.subject ?? req.socket?.remoteAddress ?? 'unknown';
    tracked.refusals.note(`http:${this.statusCode}`, source, {
      method: req.method,
      path: clip(path),
      requestId: tracked.id,
    });
    return;
  }
  if (!log.isLevelEnabled(level)) return;
  const line = {
    req: { id: tracked.id, method: req.method, path: clip(path) },
    res: { statusCode: this.statusCode },
    responseTime: Date.now() - tracked.started,
  };
  if (level === 'error') log.error(line, 'request errored');
  else log[level](line, this.writableFinished ? 'request completed' : 'request aborted');
}

/** The access line's level, or undefined for a refusal (logged aggregated elsewhere). @internal */
export function accessLevel(
  req: IncomingMessage,
  res: ServerResponse,
  path: string | undefined,
  quietPaths: ReadonlySet<string>,
): 'debug' | 'info' | 'warn' | 'error' | undefined {
  const status = res.statusCode;
  const lower = path?.toLowerCase() ?? '';
  if (status === 401 || status === 403 || status === 429) return undefined;
  if (status === 503 && (responseHeader(res, 'Retry-After') !== undefined || PROBE_PATHS.has(lower))) return undefined;
  if (status >= 500) return 'error';
  if (status >= 400) return 'warn';
  return quietPaths.has(lower) ? 'debug' : 'info';
}

function pathOnly(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

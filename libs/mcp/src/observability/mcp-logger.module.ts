import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import pino from 'pino';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { logFileDescriptor } from './log-destination';
import { requestIdFor } from './request-id';

/** Options of {@link McpLoggerModule.forRoot}. */
export interface McpLoggerOptions {
  /** Minimum level. Default `LOG_LEVEL`, else `info`. */
  level?: string;
  /**
   * One `request completed` line per HTTP request (method, path, status, time). Default true;
   * successful requests to `mcpPath` are logged at debug (their tool calls have entries of their own).
   */
  accessLog?: boolean;
  /** The MCP endpoint's path, if not `/mcp`. */
  mcpPath?: string;
  /** A file path instead of the standard stream (stdout; stderr for stdio servers). */
  destination?: string;
}

/**
 * Paths pino blanks before a line is written. Request headers are not serialised at all (see `req`
 * below); these exact paths are a second line of defence that costs nothing per line.
 */
export const REDACTED_LOG_PATHS = ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'];

/** Keys whose values never reach a log line, wherever they appear (exact names, case-insensitive). */
const SECRET_KEYS = new Set(
  'authorization proxy-authorization cookie set-cookie password passwd passphrase secret clientsecret client_secret apikey api_key api-key x-api-key token accesstoken access_token refreshtoken refresh_token idtoken id_token bearer privatekey private_key credential credentials'.split(
    ' ',
  ),
);
const CENSOR_DEPTH = 4;

/**
 * Only plain objects are walked: class instances (`req`, `res`, errors) have serializers of their
 * own, and walking a ServerResponse would cost more than the whole request.
 */
const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/**
 * Masks secret-named keys up to four levels deep, copying only the branches that hold one. A walk
 * over the keys of a log entry costs about a microsecond; pino's wildcard redaction paths cost tens
 * of microseconds per line, which would dominate a fast tool call.
 */
export function censorSecrets(value: Record<string, unknown>, depth = 0): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const v = value[key];
    let next = v;
    if (SECRET_KEYS.has(key.toLowerCase())) next = '[REDACTED]';
    else if (depth < CENSOR_DEPTH && isPlainObject(v)) next = censorSecrets(v, depth + 1);
    if (next !== v) (out ??= { ...value })[key] = next;
  }
  return out ?? value;
}

/**
 * Errors are logged with their message, type and stack, never with the request or response they
 * may carry (HTTP clients attach `config.headers.Authorization`, request bodies and cookies).
 */
export function errorSerializer(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const e = error as Error & { code?: unknown; cause?: unknown };
  const out: Record<string, unknown> = { type: e.name, message: e.message, stack: e.stack };
  if (e.code !== undefined) out.code = e.code;
  if (e.cause instanceof Error) out.cause = errorSerializer(e.cause);
  return out;
}

/**
 * A top-level `channel` is reserved for the audit channel: an application line carrying one is
 * renamed, so it can never pass for an audit event.
 */
export const reserveAuditChannel = (object: Record<string, unknown>): Record<string, unknown> => {
  if (!('channel' in object)) return object;
  const { channel, ...rest } = object;
  return { ...rest, appChannel: channel };
};

/** pino's `formatters.log`: the audit channel reserved, secrets censored. @internal */
const formatEntry = (object: Record<string, unknown>): Record<string, unknown> =>
  censorSecrets(reserveAuditChannel(object));

const DEFAULT_QUIET_PATHS: ReadonlySet<string> = new Set(['/mcp']);

/** The pino options of {@link McpLoggerModule}. @internal */
export function mcpPinoOptions(
  level: string,
  accessLog: boolean,
  quietPaths: ReadonlySet<string> = DEFAULT_QUIET_PATHS,
) {
  return {
    level,
    autoLogging: accessLog,
    // A successful request to the MCP endpoint is at debug: its tool calls have entries of their own.
    // Refusals (401, 403, 429, 503 with Retry-After or from a probe) get no access line each: the code that refuses
    // writes an aggregated line per source and reason (McpRefusalLog), so a flood of them cannot flood the log.
    customLogLevel: (req: IncomingMessage, res: ServerResponse, error?: Error) =>
      !error && isRefusal(req, res)
        ? 'silent'
        : error || res.statusCode >= 500
          ? 'error'
          : res.statusCode >= 400
            ? 'warn'
            : quietPaths.has(pathOnly(req.url)?.toLowerCase() ?? '')
              ? 'debug'
              : 'info',
    genReqId: (req: IncomingMessage, res: ServerResponse) => requestIdFor(req, res),
    redact: { paths: REDACTED_LOG_PATHS, censor: '[REDACTED]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }), log: formatEntry },
    serializers: {
      req: (req: { id?: unknown; method?: string; url?: string }) => ({
        id: req.id,
        method: req.method,
        path: pathOnly(req.url),
      }),
      res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
      err: errorSerializer,
    },
  };
}

/**
 * Structured JSON logs through pino (via nestjs-pino): Nest's own `Logger` calls, the per-call MCP
 * entries and an access line per HTTP request, each with the request's `X-Request-Id` as `reqId`.
 * Requests are serialised as method + path only: no headers (so no `Authorization`/`Cookie`), no
 * query string (tokens sent there are refused, and must not be logged either). Logs go to stdout,
 * or to stderr when the process serves MCP over stdio.
 *
 * @example
 * // app.module.ts
 * imports: [McpLoggerModule.forRoot(), McpModule.forRoot({ name: 'orders' })]
 * // main.ts
 * const app = await NestFactory.create(AppModule, { bufferLogs: true });
 * app.useLogger(app.get(Logger)); // Logger from nestjs-pino
 */
@Module({})
export class McpLoggerModule {
  static forRoot(options: McpLoggerOptions = {}): DynamicModule {
    const level = options.level ?? process.env.LOG_LEVEL ?? 'info';
    return {
      module: McpLoggerModule,
      imports: [
        LoggerModule.forRoot({
          pinoHttp: [
            mcpPinoOptions(level, options.accessLog ?? true, new Set([(options.mcpPath ?? '/mcp').toLowerCase()])),
            pino.destination({ dest: options.destination ?? logFileDescriptor(), sync: false }),
          ],
        }),
      ],
      exports: [LoggerModule],
    };
  }
}

/** Probe routes: a 503 there (draining, a dependency down) is an expected state, logged by the health service. */
const PROBE_PATHS: ReadonlySet<string> = new Set(['/health', '/ready']);

function isRefusal(req: IncomingMessage, res: ServerResponse): boolean {
  if (res.statusCode === 503 && PROBE_PATHS.has(pathOnly(req.url)?.toLowerCase() ?? '')) return true;
  const status = res.statusCode;
  return status === 401 || status === 403 || status === 429 || (status === 503 && res.hasHeader('Retry-After'));
}

function pathOnly(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

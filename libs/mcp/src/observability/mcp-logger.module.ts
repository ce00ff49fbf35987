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
  /** One `request completed` line per HTTP request (method, path, status, time). Default true. */
  accessLog?: boolean;
  /** A file path instead of the standard stream (stdout; stderr for stdio servers). */
  destination?: string;
}

/**
 * Paths pino blanks before a line is written. Defence in depth: request headers are not
 * serialised at all (see `req` below), but a team's own `logger.info({ headers })` or an error
 * carrying a config object must not leak a credential either.
 */
export const REDACTED_LOG_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  ...['authorization', 'Authorization', 'cookie', 'password', 'token', 'accessToken', 'access_token', 'refreshToken', 'secret', 'clientSecret', 'apiKey'].flatMap((k) => [
    k,
    `*.${k}`,
    `*.*.${k}`,
    `*.*.*.${k}`,
  ]),
];

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

/** The pino options of {@link McpLoggerModule}. @internal */
export function mcpPinoOptions(level: string, accessLog: boolean) {
  return {
    level,
    autoLogging: accessLog,
    genReqId: (req: IncomingMessage, res: ServerResponse) => requestIdFor(req, res),
    redact: { paths: REDACTED_LOG_PATHS, censor: '[REDACTED]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }), log: reserveAuditChannel },
    serializers: {
      req: (req: { id?: unknown; method?: string; url?: string }) => ({ id: req.id, method: req.method, path: pathOnly(req.url) }),
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
 * imports: [McpLoggerModule.forRoot(), McpModule.forRoot({ name: 'helpdesk' })]
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
            mcpPinoOptions(level, options.accessLog ?? true),
            pino.destination({ dest: options.destination ?? logFileDescriptor(), sync: false }),
          ],
        }),
      ],
      exports: [LoggerModule],
    };
  }
}

function pathOnly(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

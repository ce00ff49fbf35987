import {
  DynamicModule,
  Global,
  Inject,
  MiddlewareConsumer,
  Module,
  NestModule,
  Optional,
  RequestMethod,
} from '@nestjs/common';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import pino from 'pino';
import { AccessLogSettings, MCP_ACCESS_LOG, McpAccessLog, McpAccessLogMiddleware } from './access-log.middleware';
import { logFileDescriptor } from './log-destination';
import { mcpPinoOptions } from './log-format';
import { McpLogger } from './mcp.logger';

export { REDACTED_LOG_PATHS } from './log-format';

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
 * Structured JSON logs through pino: Nest's own `Logger` calls, the per-call MCP entries and an access line
 * per HTTP request, each line written while a request is served carrying its `X-Request-Id` as `requestId`.
 * Requests are serialised as method + path only: no headers (so no `Authorization`/`Cookie`), no query string
 * (tokens sent there are refused, and must not be logged either). Logs go to stdout, or to stderr when the
 * process serves MCP over stdio, through a buffered destination (asynchronous writes to a pipe or socket) written out
 * on shutdown.
 *
 * `bootstrapMcpServer` installs {@link McpLogger} as the app's logger when this module is imported.
 *
 * @example
 * // app.module.ts
 * imports: [McpLoggerModule.forRoot(), McpModule.forRoot({ name: 'orders' })]
 */
@Global()
@Module({})
export class McpLoggerModule implements NestModule {
  constructor(@Optional() @Inject(MCP_MODULE_OPTIONS) private readonly mcp?: ResolvedMcpOptions) {}

  static forRoot(options: McpLoggerOptions = {}): DynamicModule {
    const settings: AccessLogSettings = {
      enabled: options.accessLog ?? true,
      quietPaths: new Set([(options.mcpPath ?? '/mcp').toLowerCase()]),
    };
    return {
      module: McpLoggerModule,
      providers: [
        {
          provide: McpLogger,
          useFactory: () => {
            // LOG_LEVEL as the app boots, not when its module file was imported (a test sets it around the boot).
            const level = options.level ?? process.env.LOG_LEVEL ?? 'info';
            const destination = McpLogger.destination(options.destination ?? logFileDescriptor());
            return new McpLogger(pino(mcpPinoOptions(level), destination), destination);
          },
        },
        { provide: MCP_ACCESS_LOG, useValue: settings },
        McpAccessLog,
        McpAccessLogMiddleware,
      ],
      exports: [McpLogger, McpAccessLog],
    };
  }

  /**
   * A middleware layer of its own only when McpModule does not serve HTTP: otherwise its entry middleware, already
   * in front of every route, tracks each request through {@link McpAccessLog}.
   */
  configure(consumer: MiddlewareConsumer): void {
    if (this.mcp?.http || this.mcp?.legacySse) return;
    consumer.apply(McpAccessLogMiddleware).forRoutes({ path: '{/*splat}', method: RequestMethod.ALL });
  }
}

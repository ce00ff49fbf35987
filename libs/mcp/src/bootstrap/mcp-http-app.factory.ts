import { INestApplication, LogLevel, LoggerService, Type } from '@nestjs/common';
import { McpHttpAdapter, createNestHttpApp, resolveHttpAdapter } from '../http-adapter/http-adapter';
import { structuredLogger } from './app-logger';

/** Options of {@link createMcpHttpApp}. */
export interface McpHttpAppOptions {
  /**
   * Nest's logger while the app boots and when it has no `McpLoggerModule`: `false` for none (tests), a
   * `LoggerService`, or log levels. Once booted, an app that imports `McpLoggerModule` logs through pino.
   */
  logger?: false | LoggerService | LogLevel[];
  /**
   * The HTTP platform: `'express'` (Nest's default) or `'fastify'` (needs `@nestjs/platform-fastify`). Default:
   * `MCP_HTTP_ADAPTER`, else Express. Everything the platform serves behaves the same on both.
   */
  adapter?: McpHttpAdapter;
}

/**
 * Creates the HTTP application exactly as {@link bootstrapMcpServer} does, without listening: on Express or Fastify
 * (`options.adapter`, else `MCP_HTTP_ADAPTER`), with the body left unread (the MCP transport reads and limits request
 * bodies itself, and answers bad JSON with JSON-RPC errors), and the app's structured logger when it has one. Used by
 * the testing kit, so tests run the production pipeline.
 *
 * @example
 * const app = await createMcpHttpApp(AppModule, { logger: false });
 * await app.listen(0, '127.0.0.1');
 */
export async function createMcpHttpApp(
  module: Type<unknown>,
  options: McpHttpAppOptions = {},
): Promise<INestApplication> {
  const quiet = options.logger === false;
  const app = await createNestHttpApp(module, resolveHttpAdapter(options.adapter), {
    bufferLogs: !quiet,
    ...(options.logger !== undefined ? { logger: options.logger } : {}),
  });
  const logger = quiet ? undefined : structuredLogger(app);
  if (logger) app.useLogger(logger);
  else if (!quiet) app.flushLogs();
  return app;
}

import { INestApplication, Type } from '@nestjs/common';
import type { AddressInfo } from 'node:net';
import { NestFactory } from '@nestjs/core';
import type { NodeSDK } from '@opentelemetry/sdk-node';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { McpStdioTransport } from '../transports/stdio/mcp-stdio.transport';
import { McpMetricsServer } from '../observability/mcp-metrics.server';
import { stopMcpTelemetry } from '../observability/mcp-telemetry';
import { structuredLogger } from './app-logger';
import { createMcpHttpApp } from './mcp-http-app.factory';
import { McpHttpAdapter } from '../http-adapter/http-adapter';
import { StderrLogger } from './stderr.logger';
import { armShutdownDeadline } from './shutdown-deadline';
import { unauthenticatedHostErrorOfEnv } from '../auth/loopback-host';

/** Options of {@link bootstrapMcpServer}. */
export interface McpBootstrapOptions {
  /** What `startMcpTelemetry()` returned (from `@app/mcp/telemetry`): flushed and stopped on exit. */
  telemetry?: NodeSDK;
  /** The HTTP platform, `'express'` or `'fastify'`; default `MCP_HTTP_ADAPTER`, else Express. */
  adapter?: McpHttpAdapter;
}

/** The transport a process serves: stdio with `--stdio` or `MCP_TRANSPORT=stdio`, else HTTP. @internal */
export function wantsStdio(argv: string[] = process.argv, env: NodeJS.ProcessEnv = process.env): boolean {
  return argv.includes('--stdio') || env.MCP_TRANSPORT?.trim().toLowerCase() === 'stdio';
}

/**
 * Starts an MCP server app, the whole of a `main.ts`: Streamable HTTP on `HOST`:`PORT` (default `127.0.0.1:3000`) on
 * Express or Fastify (`options.adapter`, else `MCP_HTTP_ADAPTER`), or stdio with `--stdio` / `MCP_TRANSPORT=stdio`.
 * Over HTTP, SIGTERM and SIGINT drain (new calls refused, calls in flight finish within the grace period), close and
 * exit 0; the listening URL goes to stderr, with the adapter's name. Over stdio, stdout carries MCP messages only and
 * the process exits when stdin closes.
 * A boot failure prints one line to stderr and exits 1.
 *
 * @example
 * // main.ts
 * import { telemetry } from './instrumentation';
 * import { bootstrapMcpServer } from '@app/mcp';
 * import { AppModule } from './app.module';
 * void bootstrapMcpServer(AppModule, { telemetry });
 */
export async function bootstrapMcpServer(module: Type<unknown>, options: McpBootstrapOptions = {}): Promise<void> {
  const stdio = wantsStdio();
  try {
    // stdio ends when stdin closes: exit then, rather than wait for timers (an exporter retrying, say).
    if (stdio) await serveStdio(module, options).then(() => process.exit(0));
    else await serveHttp(module, options);
  } catch (error) {
    process.stderr.write(`MCP server failed to start: ${(error as Error).message}${startHint(error)}\n`);
    process.exit(1);
  }
}

/** What to do about the usual reasons a start fails on a developer's machine. */
function startHint(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return ' (another server, another app say, listens there: stop it or set PORT)';
  if (code === 'EACCES') return ' (a port below 1024 needs privileges: set PORT to 1024 or above)';
  return '';
}

async function serveStdio(module: Type<unknown>, options: McpBootstrapOptions): Promise<void> {
  // Until pino takes over (and if the boot fails), Nest's own messages go to stderr: stdout is the protocol's.
  const app = await NestFactory.createApplicationContext(module, { logger: new StderrLogger(), bufferLogs: true });
  const logger = structuredLogger(app);
  if (logger) app.useLogger(logger);
  else app.flushLogs();
  await app.get(McpStdioTransport).listen();
  await app.close();
  await stopMcpTelemetry(options.telemetry);
}

async function serveHttp(module: Type<unknown>, options: McpBootstrapOptions): Promise<void> {
  // Refused before Nest boots, so the start fails with this one line (a refusal during the boot comes with Nest's
  // stack).
  const exposed = unauthenticatedHostErrorOfEnv(process.env);
  if (exposed) throw exposed;
  const app = await createMcpHttpApp(module, { adapter: options.adapter });
  closeOnSignals(app, options);
  const host = process.env.HOST ?? '127.0.0.1';
  const port = Number(process.env.PORT ?? 3000);
  await app.listen(port, host);
  const mcp = app.get<ResolvedMcpOptions>(MCP_MODULE_OPTIONS, { strict: false });
  const bound = boundUrl(app.getHttpServer().address() as AddressInfo);
  const metrics = app.get(McpMetricsServer, { strict: false }).url;
  // One write: whoever waits for the listening line (a supervisor, a test) finds the metrics line with it.
  process.stderr.write(
    `${mcp.name} MCP server listening on ${bound}${mcp.path} (${app.getHttpAdapter().getType()})\n` +
      (metrics ? `${mcp.name} metrics on ${metrics}\n` : ''),
  );
}

/**
 * The address the server is bound to, as a URL: `http://0.0.0.0:3000` for `HOST=0.0.0.0` (every interface), the
 * address `localhost` resolved to for `HOST=localhost`; never a friendlier address it does not listen on alone.
 */
function boundUrl({ address, port }: AddressInfo): string {
  return `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
}

/**
 * SIGTERM/SIGINT: drain (new calls refused, calls in flight finish within the grace period), close, exit 0; exit 1
 * if that has not finished shortly after the grace period (see armShutdownDeadline).
 */
function closeOnSignals(app: INestApplication, options: McpBootstrapOptions): void {
  const graceMs = app.get<ResolvedMcpOptions>(MCP_MODULE_OPTIONS, { strict: false }).limits.shutdownGraceMs;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      armShutdownDeadline(graceMs);
      app.close().then(
        () => stopMcpTelemetry(options.telemetry).finally(() => process.exit(0)),
        () => process.exit(1),
      );
    });
  }
}

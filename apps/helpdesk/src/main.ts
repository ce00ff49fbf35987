import { telemetry } from './instrumentation';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { McpMetricsServer, McpStdioTransport, stopMcpTelemetry } from '@app/mcp';
import { AppModule } from './app.module';
import { StderrLogger } from './stderr.logger';

async function serveStdio(): Promise<void> {
  // Until pino takes over (and if the boot fails), Nest's own messages go to stderr too.
  const app = await NestFactory.createApplicationContext(AppModule, { logger: new StderrLogger(), bufferLogs: true });
  app.useLogger(app.get(Logger));
  await app.get(McpStdioTransport).listen();
  await app.close();
  await stopMcpTelemetry(telemetry);
}

async function serveHttp(): Promise<void> {
  // The MCP transport reads and limits request bodies itself (JSON-RPC errors for bad JSON).
  const app = await NestFactory.create(AppModule, { bodyParser: false, bufferLogs: true });
  app.useLogger(app.get(Logger));
  // SIGTERM/SIGINT: drain (new calls refused, calls in flight finish within the grace period), close, exit 0.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      app.close().then(
        () => stopMcpTelemetry(telemetry).finally(() => process.exit(0)),
        () => process.exit(1),
      );
    });
  }
  const host = process.env.HOST ?? '127.0.0.1';
  const port = Number(process.env.PORT ?? 3000);
  await app.listen(port, host);
  const address = app.getHttpServer().address() as { port: number };
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  process.stderr.write(`helpdesk MCP server listening on http://${shown}:${address.port}/mcp\n`);
  const metrics = app.get(McpMetricsServer).url;
  if (metrics) process.stderr.write(`helpdesk metrics on ${metrics}\n`);
}

const stdio = process.argv.includes('--stdio') || process.env.MCP_TRANSPORT === 'stdio';
// stdio ends when stdin closes: exit then, rather than wait for timers (say, an exporter retrying an absent collector).
(stdio ? serveStdio().then(() => process.exit(0)) : serveHttp()).catch((error: Error) => {
  process.stderr.write(`helpdesk failed to start: ${error.message}\n`);
  process.exit(1);
});

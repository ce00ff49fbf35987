import { Provider, Type } from '@nestjs/common';
import { McpMetrics } from './mcp-metrics.service';
import { McpMetricsServer } from './mcp-metrics.server';
import { McpMetricsController } from './mcp-metrics.controller';
import { McpCallObserver } from './mcp-call.observer';
import { McpTracingInterceptor } from './mcp-tracing.interceptor';
import { MCP_AUDIT_SINK, PinoAuditSink } from './mcp-audit.sink';
import { McpRefusalLog } from './refusal-log';

/** Providers of tracing, call logs, audit and metrics, spread into McpModule. @internal */
export const OBSERVABILITY_PROVIDERS: Provider[] = [
  McpMetrics,
  McpMetricsServer,
  McpCallObserver,
  McpRefusalLog,
  { provide: MCP_AUDIT_SINK, useClass: PinoAuditSink },
  // Not an APP_INTERCEPTOR: a global interceptor would also put every HTTP route (POST /mcp itself) through an
  // rxjs chain; the explorer attaches it to MCP handlers only.
  McpTracingInterceptor,
];
/** Registered whenever HTTP is served; each answers 404 when its feature is switched off. @internal */
export const OBSERVABILITY_CONTROLLERS: Type[] = [McpMetricsController];

import { Provider, Type } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { McpMetrics } from './mcp-metrics.service';
import { McpMetricsServer } from './mcp-metrics.server';
import { McpMetricsController } from './mcp-metrics.controller';
import { McpCallObserver } from './mcp-call.observer';
import { McpTracingInterceptor } from './mcp-tracing.interceptor';
import { MCP_AUDIT_SINK, PinoAuditSink } from './mcp-audit.sink';

/** Providers of tracing, call logs, audit and metrics, spread into McpModule. @internal */
export const OBSERVABILITY_PROVIDERS: Provider[] = [
  McpMetrics,
  McpMetricsServer,
  McpCallObserver,
  { provide: MCP_AUDIT_SINK, useClass: PinoAuditSink },
  // Global like Nest's own interceptors, so it also wraps calls guarded by a team's interceptors; it ignores non-MCP contexts.
  { provide: APP_INTERCEPTOR, useClass: McpTracingInterceptor },
];
/** Registered whenever HTTP is served; each answers 404 when its feature is switched off. @internal */
export const OBSERVABILITY_CONTROLLERS: Type[] = [McpMetricsController];

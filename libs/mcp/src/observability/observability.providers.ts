import { Provider, Type } from '@nestjs/common';
import { McpMetrics } from './mcp-metrics.service';
import { McpMetricsServer } from './mcp-metrics.server';
import { McpMetricsController } from './mcp-metrics.controller';
import { McpCallObserver } from './mcp-call.observer';
import { MCP_AUDIT_SINK, PinoAuditSink } from './mcp-audit.sink';
import { McpRefusalLog } from './refusal-log';
import { MCP_AUTH_FAILURE_LISTENER } from '../auth/auth-failure.listener';
import { AuthFailureRecorder } from './auth-failure.recorder';
import { McpAdmissionRefusals } from '../admission/admission-refusals';
import { AdmissionRefusalsRecorder } from './admission-refusals.recorder';

/** Providers of tracing, call logs, audit and metrics, spread into McpModule. @internal */
export const OBSERVABILITY_PROVIDERS: Provider[] = [
  McpMetrics,
  McpMetricsServer,
  McpCallObserver,
  McpRefusalLog,
  { provide: McpAdmissionRefusals, useClass: AdmissionRefusalsRecorder },
  { provide: MCP_AUDIT_SINK, useClass: PinoAuditSink },
  { provide: MCP_AUTH_FAILURE_LISTENER, useClass: AuthFailureRecorder },
];
/** Registered whenever HTTP is served; each answers 404 when its feature is switched off. @internal */
export const OBSERVABILITY_CONTROLLERS: Type[] = [McpMetricsController];

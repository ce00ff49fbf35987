// Public API of observability/ (named exports only).
export { McpMetricsOptions } from '../options/metrics-options.interface';
export { McpLoggingOptions } from '../options/logging-options.interface';
export { McpLoggerModule, McpLoggerOptions, REDACTED_LOG_PATHS } from './mcp-logger.module';
export { McpLogger } from './mcp.logger';
export { McpAuditEvent, McpAuditSink, MCP_AUDIT_SINK } from './mcp-audit.sink';
export { McpMetrics } from './mcp-metrics.service';
export { McpMetricsServer } from './mcp-metrics.server';
export { startMcpTelemetry, stopMcpTelemetry, McpTelemetryOptions } from './mcp-telemetry';
export { MASK } from '../registry/argument-masker';

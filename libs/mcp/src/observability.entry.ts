/**
 * Entry point `@app/mcp/observability`: where a team plugs into what the platform records. The audit channel (a
 * sink of its own under `MCP_AUDIT_SINK`), the Prometheus registry to add its own instruments to, and the masks the
 * logs apply. Logging itself (`McpLoggerModule`, `McpLogger`) is in `@app/mcp`; tracing start-up in
 * `@app/mcp/telemetry`.
 *
 * @example
 * import { MCP_AUDIT_SINK, McpAuditSink } from '@app/mcp/observability';
 * \@Module({ providers: [{ provide: MCP_AUDIT_SINK, useClass: KafkaAuditSink }] })
 */
export { McpAuditEvent, McpAuditSink, MCP_AUDIT_SINK } from './observability/mcp-audit.sink';
export { McpMetrics } from './observability/mcp-metrics.service';
export { REDACTED_LOG_PATHS } from './observability/mcp-logger.module';
export { MASK } from './registry/argument-masker';

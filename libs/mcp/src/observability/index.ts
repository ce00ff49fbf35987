// Public API of observability/ (named exports only).
export { McpMetricsOptions } from './metrics-options.interface';
export { McpLoggingOptions } from './logging-options.interface';

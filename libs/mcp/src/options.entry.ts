/**
 * Entry point `@app/mcp/options`: the type of each part of `McpModuleOptions`, for a team that builds its options in
 * pieces (a factory per part, a shared default). `McpModuleOptions` itself is in `@app/mcp`.
 *
 * @example
 * import { McpLimits } from '@app/mcp/options';
 * export const ordersLimits: McpLimits = { requestsPerMinute: 600 };
 */
export { McpAuthOptions } from './auth/auth-options.interface';
export { McpLimits } from './limits/limits-options.interface';
export { McpCachingOptions } from './protocol/caching-options.interface';
export { McpTasksOptions } from './tasks/tasks-options.interface';
export { McpHealthOptions } from './health/health-options.interface';
export { McpMetricsOptions } from './observability/metrics-options.interface';
export { McpLoggingOptions } from './observability/logging-options.interface';
export { McpLoggerOptions } from './observability/mcp-logger.module';
export { McpCorporateOptions, McpTextSource } from './corporate/corporate-options.interface';
export { McpRedisOptions } from './stores/redis-options.interface';
export { HttpStatusProfile } from './errors/http-status';

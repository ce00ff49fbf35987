/**
 * Entry point `@app/mcp/options`: the type of each part of `McpModuleOptions`, for a team that builds its options in
 * pieces (a factory per part, a shared default). `McpModuleOptions` itself is in `@app/mcp`.
 *
 * @example
 * import { McpLimits } from '@app/mcp/options';
 * export const ordersLimits: McpLimits = { requestsPerMinute: 600 };
 */
export { McpAuthOptions } from './options/auth-options.interface';
export { McpLimits } from './options/limits-options.interface';
export { McpCachingOptions } from './options/caching-options.interface';
export { McpTasksOptions } from './options/tasks-options.interface';
export { McpHealthOptions } from './options/health-options.interface';
export { McpMetricsOptions } from './options/metrics-options.interface';
export { McpLoggingOptions } from './options/logging-options.interface';
export { McpLoggerOptions } from './observability/mcp-logger.module';
export { McpCorporateOptions, McpTextSource } from './options/corporate-options.interface';
export { McpRedisOptions } from './options/redis-options.interface';
export { McpSkillsOptions } from './options/skills-options.interface';
export { HttpStatusProfile } from './errors/http-status';

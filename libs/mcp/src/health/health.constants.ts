/** Names of the platform's own readiness checks; a team check may not take one. @internal */
export const PLATFORM_CHECKS = [
  'jwks',
  'introspection',
  'session_store',
  'event_store',
  'limit_store',
  'shutdown',
] as const;

/** A check name is a JSON key operators read and alert on: short snake_case. @internal */
export const CHECK_NAME_PATTERN = /^[a-z][a-z0-9_]{0,39}$/;

/** Heap ceiling of `/health` in MiB (Terminus `MemoryHealthIndicator`); unset means no memory rule. @internal */
export const HEALTH_MAX_HEAP_ENV = 'MCP_HEALTH_MAX_HEAP_MB';

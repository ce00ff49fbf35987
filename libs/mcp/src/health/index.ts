// Public API of health/ (named exports only).
export { McpHealthOptions } from '../options/health-options.interface';
export { McpReadinessCheck } from './mcp-readiness-check.decorator';
export { McpReadinessIndicator } from './mcp-readiness-indicator.interface';
export { McpCheckStatus, McpHealthBody, McpReadinessBody } from './health-body.interface';

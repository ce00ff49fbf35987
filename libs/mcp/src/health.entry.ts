/**
 * Entry point `@app/mcp/health`: a team's own readiness checks (`/ready`) and the shapes of the `/health` and
 * `/ready` bodies. A check is a provider whose method returns a Terminus result; the platform finds it at boot.
 *
 * @example
 * import { McpReadinessCheck, McpReadinessIndicator } from '@app/mcp/health';
 * \@McpReadinessCheck('orders_db')
 * export class OrdersDbIndicator implements McpReadinessIndicator { ... }
 */
export { McpReadinessCheck } from './health/mcp-readiness-check.decorator';
export { McpReadinessIndicator } from './health/mcp-readiness-indicator.interface';
export { McpCheckStatus, McpHealthBody, McpReadinessBody } from './health/health-body.interface';

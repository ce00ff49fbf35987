import { DiscoveryService } from '@nestjs/core';
import { CHECK_NAME_PATTERN, PLATFORM_CHECKS } from './health.constants';

/** The discoverable marker behind {@link McpReadinessCheck}; its value is the check name. @internal */
export const READINESS_CHECK = DiscoveryService.createDecorator<string>();

/**
 * Adds a provider implementing {@link McpReadinessIndicator} to `GET /ready` under `name`
 * (snake_case, not one of the platform's own: jwks, introspection, session_store, event_store,
 * limit_store, shutdown). The provider must be a singleton in any module of the app.
 *
 * @example
 * @McpReadinessCheck('db')
 * @Injectable()
 * export class DbHealthIndicator implements McpReadinessIndicator {
 *   constructor(private readonly health: HealthIndicatorService, private readonly db: Pool) {}
 *   async isHealthy(key: string) {
 *     await this.db.query('SELECT 1');
 *     return this.health.check(key).up();
 *   }
 * }
 */
export function McpReadinessCheck(name: string): ClassDecorator {
  if (!CHECK_NAME_PATTERN.test(name))
    throw new Error(`@McpReadinessCheck: "${name}" must be snake_case (${CHECK_NAME_PATTERN})`);
  if ((PLATFORM_CHECKS as readonly string[]).includes(name))
    throw new Error(`@McpReadinessCheck: "${name}" is a platform check name; choose another`);
  return READINESS_CHECK(name) as ClassDecorator;
}

import type { HealthIndicatorResult } from '@nestjs/terminus';

/**
 * A team's own readiness check (a database, an upstream API), discovered at boot when its class
 * carries {@link McpReadinessCheck}. Build the answer with Terminus's `HealthIndicatorService`
 * (`check(key).up()`, `.down()`, `.degraded()`, or `.attempt(fn)`); throwing counts as down.
 *
 * The platform runs it in parallel with the other checks, caches the answer for `health.cacheMs`,
 * counts it as down after `health.probeTimeoutMs` (then `signal` aborts), and publishes only the
 * status: data and messages in the result are logged at most, never served.
 */
export interface McpReadinessIndicator {
  /** Probes the dependency and returns Terminus's result under `key` (the name given to the decorator). */
  isHealthy(key: string, signal: AbortSignal): PromiseLike<HealthIndicatorResult> | HealthIndicatorResult;
}

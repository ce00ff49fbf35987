import { Inject, Injectable, Type } from '@nestjs/common';
import type { HealthIndicatorResult } from '@nestjs/terminus';
import { McpReadinessCheck } from '../health/mcp-readiness-check.decorator';
import { McpReadinessIndicator } from '../health/mcp-readiness-indicator.interface';
import { downstreamToken } from './downstream.constants';
import type { McpDownstreamClient } from './mcp-downstream.client';
import { readinessCheckName } from './downstream-names';

/** The longest wait for the health path's answer, whatever the probe's own bound: a readiness check must be quick. */
export const HEALTH_PATH_TIMEOUT_MS = 2_000;

/**
 * The `/ready` check of one downstream (its `readiness` option): down while its circuit breaker is open, while its
 * health path (when given) does not answer 2xx within {@link HEALTH_PATH_TIMEOUT_MS}, or while its token issuer
 * cannot be reached and no token is usable. One class per downstream, since a check's name is its class's metadata.
 * @internal
 */
export function downstreamReadinessCheck(name: string): Type<McpReadinessIndicator> {
  @McpReadinessCheck(readinessCheckName(name))
  @Injectable()
  class DownstreamReadinessCheck implements McpReadinessIndicator {
    constructor(@Inject(downstreamToken(name)) private readonly client: McpDownstreamClient) {}

    async isHealthy(key: string, signal: AbortSignal): Promise<HealthIndicatorResult> {
      // A throw is down; its message goes to the readiness log line, never to the /ready body.
      if (this.client.breakerState === 'open') throw new Error(`downstream "${name}": the circuit breaker is open`);
      const health = this.client.healthUrl;
      if (health) await answers2xx(name, health, signal);
      if (!(await this.client.issuerReachable(signal)))
        throw new Error(`downstream "${name}": the token issuer cannot be reached and no token is usable`);
      return { [key]: { status: 'up' } };
    }
  }
  return DownstreamReadinessCheck;
}

/** GET `url` (no credentials: a health path is not the API) answers 2xx within the bound, or throws why not. */
async function answers2xx(name: string, url: URL, signal: AbortSignal): Promise<void> {
  const bounded = AbortSignal.any([signal, AbortSignal.timeout(HEALTH_PATH_TIMEOUT_MS)]);
  const res = await fetch(url, { signal: bounded, redirect: 'manual' }).catch((e: unknown) => {
    const why = bounded.aborted ? `no answer within ${HEALTH_PATH_TIMEOUT_MS} ms` : ((e as Error).name ?? 'no answer');
    throw new Error(`downstream "${name}": health path ${url.pathname}: ${why}`);
  });
  await res.body?.cancel();
  if (res.status < 200 || res.status >= 300)
    throw new Error(`downstream "${name}": health path ${url.pathname} answered ${res.status}`);
}

import type { HealthCheckResult } from '@nestjs/terminus';
import { McpCheckStatus, McpHealthBody, McpReadinessBody } from './health-body.interface';

/** A body and the HTTP status that goes with it. @internal */
export interface HealthAnswer<T> {
  code: 200 | 503;
  body: T;
}

/** Terminus's indicator status as the corporate status word; a missing detail is down. @internal */
export function checkStatus(detail: { status?: string } | undefined): McpCheckStatus {
  if (detail?.status === 'up') return 'ok';
  return detail?.status === 'degraded' ? 'degraded' : 'down';
}

/**
 * Terminus's result (`status`, `info`, `error`, `details` with messages) reduced to the corporate
 * `/ready` body: one status word per check, in `keys` order, nothing else (§16.3, docs/compliance.md#s16). Degraded
 * checks keep the server ready; draining wins over everything.
 * @internal
 */
export function readinessAnswer(
  result: HealthCheckResult,
  keys: readonly string[],
  draining: boolean,
): HealthAnswer<McpReadinessBody> {
  const checks: Record<string, McpCheckStatus> = {};
  for (const key of keys) checks[key] = checkStatus(result.details[key]);
  if (draining) checks.shutdown = 'draining';
  const status = draining ? 'draining' : result.status === 'ok' || result.status === 'degraded' ? 'ready' : 'not_ready';
  return { code: status === 'ready' ? 200 : 503, body: { status, checks } };
}

/** Terminus's liveness result as the corporate `/health` body. @internal */
export function healthAnswer(result: HealthCheckResult, version: string): HealthAnswer<McpHealthBody> {
  const ok = result.status === 'ok' || result.status === 'degraded';
  return { code: ok ? 200 : 503, body: { status: ok ? 'ok' : 'down', version, uptime: Math.floor(process.uptime()) } };
}

import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { McpReadinessCheck, McpReadinessIndicator } from '@app/mcp/health';

/** Injection token of the directory API's base URL (from `HELPDESK_DIRECTORY_URL`). */
export const DIRECTORY_URL = Symbol('DIRECTORY_URL');

/**
 * Example of a team readiness check: the corporate directory the helpdesk would resolve ticket
 * owners with. Ready when `GET <url>/health` answers 2xx; the platform adds the timeout, the cache,
 * and keeps the reason out of the `/ready` body (it reaches the log only).
 */
@McpReadinessCheck('directory')
@Injectable()
export class DirectoryHealthIndicator implements McpReadinessIndicator {
  constructor(
    private readonly health: HealthIndicatorService,
    @Inject(DIRECTORY_URL) private readonly baseUrl: string,
  ) {}

  async isHealthy(key: string, signal: AbortSignal) {
    const check = this.health.check(key);
    const res = await fetch(`${this.baseUrl.replace(/\/+$/, '')}/health`, { signal });
    await res.body?.cancel();
    return res.ok ? check.up() : check.down(`answered HTTP ${res.status}`);
  }
}

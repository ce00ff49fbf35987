import { Injectable } from '@nestjs/common';
import { LazyModuleLoader } from '@nestjs/core';
import { HealthCheckService, HealthIndicatorService, MemoryHealthIndicator, TerminusModule } from '@nestjs/terminus';

/** The Terminus services the health endpoints use. @internal */
export interface TerminusServices {
  checks: HealthCheckService;
  indicators: HealthIndicatorService;
  memory: MemoryHealthIndicator;
}

/**
 * Loads Terminus on first use with Nest's `LazyModuleLoader`: McpModule's providers come as a list
 * and cannot import modules, and stdio-only apps never pay for it. Its own logger is off: the
 * readiness log (reasons, on change only) is ours. Loaded once; concurrent callers share the load.
 * @internal
 */
@Injectable()
export class TerminusLoader {
  private loading: Promise<TerminusServices> | undefined;

  constructor(private readonly lazy: LazyModuleLoader) {}

  get(): Promise<TerminusServices> {
    this.loading ??= this.lazy
      .load(() => TerminusModule.forRoot({ logger: false }), { logger: false })
      .then((ref) => ({
        checks: ref.get(HealthCheckService),
        indicators: ref.get(HealthIndicatorService),
        memory: ref.get(MemoryHealthIndicator),
      }));
    this.loading.catch(() => (this.loading = undefined));
    return this.loading;
  }
}

import { Inject, Injectable, Logger } from '@nestjs/common';
import type {
  HealthCheckResult,
  HealthCheckService,
  HealthIndicatorFunction,
  HealthIndicatorResult,
  HealthIndicatorStatus,
} from '@nestjs/terminus';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { McpSessionManager } from '../sessions/mcp-session.manager';
import { HEALTH_MAX_HEAP_ENV } from './health.constants';
import { HealthAnswer, healthAnswer, readinessAnswer } from './health-body.mapper';
import { McpHealthBody, McpReadinessBody } from './health-body.interface';
import { ProbeFailure } from './http-probes';
import { NamedProbe, PlatformProbesFactory } from './platform-probes.factory';
import { ProbeRunner } from './probe-runner';
import { redact } from '../errors/redact';
import { ReadinessCheckExplorer } from './readiness-check.explorer';
import { TerminusLoader } from './terminus.loader';

/**
 * Liveness and readiness through Terminus: probes (platform and team) run in parallel under the
 * {@link ProbeRunner} rules, Terminus's `HealthCheckService` aggregates, and the result is mapped to
 * the corporate bodies.
 * @internal
 */
@Injectable()
export class McpHealthService {
  private readonly runner: ProbeRunner;
  private readonly maxHeapBytes: number | undefined;
  private probes: NamedProbe[] | undefined;
  private heapWasHigh = false;
  private readonly logger = new Logger('McpHealth');

  constructor(
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly terminus: TerminusLoader,
    private readonly platform: PlatformProbesFactory,
    private readonly team: ReadinessCheckExplorer,
    private readonly sessions: McpSessionManager,
  ) {
    this.runner = new ProbeRunner(options.health.cacheMs, options.health.probeTimeoutMs);
    this.maxHeapBytes = heapLimit(process.env[HEALTH_MAX_HEAP_ENV]);
  }

  /** `/health`: 503 only when the heap is above `MCP_HEALTH_MAX_HEAP_MB` (when set). */
  async liveness(): Promise<HealthAnswer<McpHealthBody>> {
    const { checks, memory } = await this.terminus.get();
    const limit = this.maxHeapBytes;
    const result = await settle(checks, limit ? [() => memory.checkHeap('memory_heap', limit)] : []);
    const answer = healthAnswer(result, this.options.version);
    const high = answer.code === 503;
    if (high !== this.heapWasHigh) {
      if (high) this.logger.error(`liveness lost: heap used is above ${HEALTH_MAX_HEAP_ENV}`);
      else this.logger.log('liveness back: heap used is below the limit again');
    }
    this.heapWasHigh = high;
    return answer;
  }

  /** `/ready`: every probe, then the shutdown state; 200 only when all are up (or degraded) and not draining. */
  async readiness(): Promise<HealthAnswer<McpReadinessBody>> {
    const { checks, indicators } = await this.terminus.get();
    this.probes ??= [
      ...this.platform.create(),
      ...this.team.checks.map(({ key, indicator }) => ({
        key,
        probe: teamProbe(key, indicator.isHealthy.bind(indicator)),
      })),
    ];
    const draining = this.sessions.draining;
    const fns: HealthIndicatorFunction[] = this.probes.map(({ key, probe }) => async () => {
      const status = await this.runner.run(key, probe);
      const check = indicators.check(key);
      return status === 'up' ? check.up() : status === 'degraded' ? check.degraded() : check.down();
    });
    fns.push(() => (draining ? indicators.check('shutdown').down() : indicators.check('shutdown').up()));
    const result = await settle(checks, fns);
    return readinessAnswer(result, [...this.probes.map((p) => p.key), 'shutdown'], draining);
  }
}

/** A team indicator as a probe: only its status under `key` counts; its message is logged at most. */
function teamProbe(
  key: string,
  isHealthy: (key: string, signal: AbortSignal) => PromiseLike<HealthIndicatorResult> | HealthIndicatorResult,
) {
  return async (signal: AbortSignal): Promise<HealthIndicatorStatus> => {
    const detail = (await isHealthy(key, signal))?.[key] as { status?: string; message?: unknown } | undefined;
    if (detail?.status === 'up' || detail?.status === 'degraded') return detail.status;
    if (detail?.status === 'down')
      throw new ProbeFailure(typeof detail.message === 'string' ? redact(detail.message) : 'reported down');
    throw new ProbeFailure(`answered without a result under "${key}"`);
  };
}

/** Terminus throws a 503 exception carrying the result when a check is down; we want the result either way. */
async function settle(service: HealthCheckService, fns: HealthIndicatorFunction[]): Promise<HealthCheckResult> {
  try {
    return await service.check(fns);
  } catch (error) {
    const result = (error as { getResponse?: () => unknown }).getResponse?.() as HealthCheckResult | undefined;
    if (result && typeof result === 'object' && 'details' in result && 'status' in result) return result;
    throw error;
  }
}

function heapLimit(raw: string | undefined): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const mb = Number(raw);
  if (!Number.isFinite(mb) || mb <= 0)
    throw new Error(
      `McpModule health: ${HEALTH_MAX_HEAP_ENV} must be a positive number of MiB (got ${JSON.stringify(raw)})`,
    );
  return Math.round(mb * 1024 * 1024);
}

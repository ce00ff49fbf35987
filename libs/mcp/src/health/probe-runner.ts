import { Logger } from '@nestjs/common';
import type { HealthIndicatorStatus } from '@nestjs/terminus';
import { describeFailure } from '../errors/redact';

/** One dependency probe: resolves with its status, or throws (counts as down). @internal */
export type Probe = (signal: AbortSignal) => Promise<HealthIndicatorStatus>;

interface Outcome {
  status: HealthIndicatorStatus;
  reason?: string;
}

/**
 * Runs probes with the readiness rules: a probe slower than `timeoutMs` is down (its signal aborts),
 * a throw is down, and an answer is reused for `cacheMs` after it settles, so a load balancer
 * polling `/ready` cannot hammer the issuer or a database. Concurrent callers share one run.
 * Reasons go to the log on changes only (down, and back up), never into a response.
 * @internal
 */
export class ProbeRunner {
  private readonly logger = new Logger('McpReadiness');
  private readonly cache = new Map<string, { expires: number; outcome: Promise<Outcome> }>();
  private readonly last = new Map<string, HealthIndicatorStatus>();

  constructor(
    private readonly cacheMs: number,
    private readonly timeoutMs: number,
  ) {}

  async run(key: string, probe: Probe): Promise<HealthIndicatorStatus> {
    const hit = this.cache.get(key);
    if (hit && hit.expires > Date.now()) return (await hit.outcome).status;
    const entry = { expires: Number.POSITIVE_INFINITY, outcome: this.attempt(probe) };
    this.cache.set(key, entry);
    const outcome = await entry.outcome;
    entry.expires = Date.now() + this.cacheMs;
    this.report(key, outcome);
    return outcome.status;
  }

  private async attempt(probe: Probe): Promise<Outcome> {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<Outcome>((resolve) => {
      timer = setTimeout(() => {
        controller.abort(new DOMException('probe timed out', 'TimeoutError'));
        resolve({ status: 'down', reason: `timed out after ${this.timeoutMs} ms` });
      }, this.timeoutMs);
    });
    const run = Promise.resolve()
      .then(() => probe(controller.signal))
      .then(
        (status): Outcome => ({ status }),
        (error: unknown): Outcome => ({ status: 'down', reason: describeFailure(error) }),
      );
    try {
      return await Promise.race([run, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private report(key: string, { status, reason }: Outcome): void {
    const before = this.last.get(key);
    this.last.set(key, status);
    if (status === before) return;
    if (status === 'down') this.logger.warn(`readiness check "${key}" is down: ${reason ?? 'reported down'}`);
    else if (before !== undefined)
      this.logger.log(`readiness check "${key}" is ${status === 'up' ? 'ok' : status} again`);
  }
}

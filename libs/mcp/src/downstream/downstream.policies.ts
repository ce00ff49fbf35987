import {
  BulkheadPolicy,
  CircuitBreakerPolicy,
  CircuitState,
  ConsecutiveBreaker,
  DelegateBackoff,
  IRetryBackoffContext,
  RetryPolicy,
  bulkhead,
  circuitBreaker,
  handleWhenResult,
  retry,
} from 'cockatiel';
import { ResolvedDownstreamOptions } from './downstream-options.resolver';

/** What one attempt produced, as the policies read it. @internal */
export interface PolicyOutcome {
  /** Counts against the breaker: no answer, or a 5xx. */
  failed: boolean;
  /** Wait this long and try again (retry-decision.ts decided); undefined for no retry. */
  retryInMs: number | undefined;
}

/**
 * The cockatiel policies of one downstream, built once: a bulkhead (at most `maxConcurrent` requests in flight, as
 * many waiting), a retry whose every decision (whether, how long) the attempt itself made within the call's deadline,
 * and a circuit breaker (`consecutiveFailures` in a row open it; after `halfOpenAfterMs` one trial request goes
 * through, and its outcome closes or reopens it).
 * @internal
 */
export class DownstreamPolicies {
  readonly bulkhead: BulkheadPolicy;
  readonly retry: RetryPolicy;
  readonly breaker: CircuitBreakerPolicy | undefined;
  /** When the breaker last opened (cockatiel moves to half-open only when the next request comes). */
  private openedAt = 0;

  constructor(private readonly options: ResolvedDownstreamOptions) {
    this.bulkhead = bulkhead(options.maxConcurrent, options.maxConcurrent);
    this.retry = retry(
      handleWhenResult((r) => (r as PolicyOutcome).retryInMs !== undefined),
      {
        // Each attempt decides (retry-decision.ts gates on `retry.attempts` too); this only bounds the loop.
        maxAttempts: options.retry.attempts,
        backoff: new DelegateBackoff<IRetryBackoffContext<unknown>>((ctx) =>
          'value' in ctx.result ? ((ctx.result.value as PolicyOutcome).retryInMs ?? 0) : 0,
        ),
      },
    );
    this.breaker = options.breaker
      ? circuitBreaker(
          handleWhenResult((r) => (r as PolicyOutcome).failed),
          {
            halfOpenAfter: options.breaker.halfOpenAfterMs,
            breaker: new ConsecutiveBreaker(options.breaker.consecutiveFailures),
          },
        )
      : undefined;
    this.breaker?.onBreak(() => (this.openedAt = Date.now()));
  }

  /**
   * `closed`, `open` or `half-open` (`closed` without a breaker). An open breaker whose `halfOpenAfterMs` has passed
   * is `half-open`: the next request is its trial. Said so here, since cockatiel changes state only when that request
   * comes, and a replica whose readiness waited for it (out of the load balancer, no calls) would never come back.
   */
  get breakerState(): 'closed' | 'open' | 'half-open' {
    const state = this.breaker?.state;
    if (state === CircuitState.Isolated) return 'open';
    if (state === CircuitState.Open)
      return Date.now() - this.openedAt >= this.options.breaker!.halfOpenAfterMs ? 'half-open' : 'open';
    return state === CircuitState.HalfOpen ? 'half-open' : 'closed';
  }
}

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

  constructor(options: ResolvedDownstreamOptions) {
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
  }

  /** `closed`, `open` or `half-open` (`closed` without a breaker). */
  get breakerState(): 'closed' | 'open' | 'half-open' {
    const state = this.breaker?.state;
    if (state === CircuitState.Open || state === CircuitState.Isolated) return 'open';
    return state === CircuitState.HalfOpen ? 'half-open' : 'closed';
  }
}

import { MIN_ATTEMPT_MS } from './downstream.constants';
import { ResolvedDownstreamOptions } from './downstream-options.resolver';

/** Methods whose repetition does no harm (RFC 9110 §9.2.2): retried without an idempotency key. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** True when a request may be sent again: an idempotent method, or any method with an idempotency key. @internal */
export const isRetrySafe = (method: string, idempotencyKey: string | undefined): boolean =>
  IDEMPOTENT.has(method.toUpperCase()) || (idempotencyKey !== undefined && idempotencyKey !== '');

/** What one attempt ended with, as far as retrying is concerned. @internal */
export interface AttemptEnd {
  /** The status it answered with; undefined when it did not answer (connection refused or reset, timeout). */
  status: number | undefined;
  /** Retry-After of a 429, in seconds. */
  retryAfter: number | undefined;
  /** The call was cancelled or its deadline passed: never retried. */
  stopped: boolean;
}

/**
 * How long to wait before the next attempt, or undefined when there is none: only safe requests, only after no
 * answer, a 502/503/504, or a 429 whose Retry-After is short; exponential backoff with full jitter (a random delay
 * up to `initialDelayMs * 2^retry`, capped by `maxDelayMs`); and never when the wait and a last attempt do not fit
 * before the deadline.
 * @internal
 */
export function retryDelay(
  end: AttemptEnd,
  retriesDone: number,
  safe: boolean,
  retry: ResolvedDownstreamOptions['retry'],
  deadline: number,
  now = Date.now(),
  random: () => number = Math.random,
): number | undefined {
  if (!safe || end.stopped || retriesDone >= retry.attempts) return undefined;
  let delay: number;
  if (end.status === 429) {
    const after = end.retryAfter ?? 1;
    if (after > retry.maxRetryAfterSeconds) return undefined;
    delay = after * 1000;
  } else if (end.status === undefined || end.status === 502 || end.status === 503 || end.status === 504) {
    delay = Math.round(random() * Math.min(retry.maxDelayMs, retry.initialDelayMs * 2 ** retriesDone));
  } else return undefined;
  return now + delay + MIN_ATTEMPT_MS <= deadline ? delay : undefined;
}

import {
  DownstreamConflictError,
  DownstreamError,
  DownstreamRateLimitedError,
  DownstreamRejectedError,
  DownstreamServerError,
  DownstreamUnavailableError,
} from './downstream.errors';

/** What the mapping needs of a failed answer. @internal */
export interface FailedAnswer {
  status: number;
  /** The upstream's reason, already reduced and sanitised (upstream-text.ts), if it gave one. */
  text: string | undefined;
  /** Retry-After in whole seconds, when it sent one. */
  retryAfter: number | undefined;
}

/**
 * The corporate table of upstream statuses (standard v2.0 §13.4, see docs/compliance.md#s13), row by row: which
 * error a status >= 400 becomes. The message is the upstream's own reason when it gave one, else a generic sentence;
 * it never names the downstream.
 * @internal
 */
export function mapUpstreamStatus(name: string, answer: FailedAnswer): DownstreamError {
  const { status, text } = answer;
  const reason = (generic: string) => (text ? `${text} (HTTP ${status})` : `${generic} (HTTP ${status})`);
  if (status === 401 || status === 403)
    return new DownstreamRejectedError(reason('The downstream service refused the credentials'), name, status);
  if (status === 404) return new DownstreamRejectedError(reason('Not found in the downstream service'), name, status);
  if (status === 409) return new DownstreamConflictError(reason('The downstream service reported a conflict'), name);
  if (status === 429)
    return new DownstreamRateLimitedError(
      answer.retryAfter ?? 1,
      reason('Rate limited by the downstream service: retry later'),
      name,
    );
  if (status === 502 || status === 503 || status === 504)
    return new DownstreamUnavailableError(reason('The downstream service is unavailable'), name, status);
  if (status >= 500) return new DownstreamServerError(reason('The downstream service failed'), name, status);
  // 400 and the other 4xx: the request was wrong; the model can read why and correct it.
  return new DownstreamRejectedError(reason('The downstream service rejected the request'), name, status);
}

/** No answer at all (refused connection, reset, timeout) or the breaker open: `-32006`. @internal */
export function noAnswer(name: string, why: string): DownstreamUnavailableError {
  return new DownstreamUnavailableError(`The downstream service did not answer: ${why}`, name, undefined);
}

/**
 * Retry-After as whole seconds (RFC 9110 §10.2.3: delay-seconds or an HTTP date), at least 1; undefined when absent
 * or unreadable.
 * @internal
 */
export function retryAfterSeconds(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined || raw.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(raw)) return Math.max(1, Math.min(Number(raw), 86_400));
  const at = Date.parse(raw);
  if (Number.isNaN(at)) return undefined;
  return Math.max(1, Math.min(Math.ceil((at - now) / 1000), 86_400));
}

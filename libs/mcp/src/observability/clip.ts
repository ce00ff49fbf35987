/** The longest value taken from a request (a path, a subject) that a log line carries. */
export const MAX_LOGGED_CHARS = 256;

/**
 * A value from the request as a log line may carry it: cut to {@link MAX_LOGGED_CHARS} characters, ending in `…` when
 * cut, so one request can never write more than a bounded line (a 15 KB URL wrote a 15 KB warn line per request).
 * @internal
 */
export function clip<T extends string | undefined>(value: T): T {
  return (value !== undefined && value.length > MAX_LOGGED_CHARS ? `${value.slice(0, MAX_LOGGED_CHARS)}…` : value) as T;
}

import { Logger } from '@nestjs/common';

/**
 * How long a shutdown may run past the grace period before the process exits anyway: enough for what follows the
 * drain (the answers of calls aborted at its end, 1 s; the slots given back and the Redis connections closed, 1 s
 * each at most; the telemetry flush, 1 s), within the slack of the Kubernetes manifests.
 */
export const SHUTDOWN_MARGIN_MS = 5_000;

/**
 * The last resort of a graceful shutdown, armed when the signal comes: unless the process has exited `graceMs` +
 * {@link SHUTDOWN_MARGIN_MS} later (a shutdown hook waiting on a store that never answers, say), one error line
 * and exit 1, rather than a replica whose ports are closed living on until it is killed.
 * @internal
 */
export function armShutdownDeadline(
  graceMs: number,
  exit: (code: number) => void = (code) => process.exit(code),
): NodeJS.Timeout {
  const limit = graceMs + SHUTDOWN_MARGIN_MS;
  return setTimeout(() => {
    new Logger('McpShutdown').error(
      `shutdown did not finish within ${limit} ms (grace period + ${SHUTDOWN_MARGIN_MS} ms): exiting now`,
    );
    exit(1);
  }, limit);
}

import { Logger } from '@nestjs/common';
import { SHUTDOWN_MARGIN_MS } from './bootstrap.constants';

export { SHUTDOWN_MARGIN_MS };

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

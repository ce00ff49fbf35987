import { McpError } from '../errors/mcp.error';
import { ErrorCode } from '../wire/json-rpc';
import { McpSession } from './mcp-session';

/** How long the calls aborted at the end of the grace period get to write their `-32006` answer. */
const ANSWER_FLUSH_MS = 1_000;

const shutdownError = () =>
  new McpError(ErrorCode.UpstreamUnavailable, 'Unavailable: the server shut down before the call finished; retry', {
    reason: 'shutting_down',
    retryAfter: 1,
  });

/**
 * Shutdown: waits up to `graceMs` for the calls in flight on `sessions()` to finish. Past it, every call still
 * running gets the documented -32006 answer (on its SSE stream too) before the sessions and their streams close.
 * `sessions` is asked again at each check, since sessions end while this waits.
 * @internal
 */
export async function drainCalls(sessions: () => Iterable<McpSession>, graceMs: number): Promise<void> {
  const deadline = Date.now() + graceMs;
  while (inflight(sessions()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  if (inflight(sessions()) === 0) return;
  for (const session of sessions()) for (const call of session.inflight.values()) call.abort(shutdownError());
  const written = Date.now() + ANSWER_FLUSH_MS;
  while (inflight(sessions()) > 0 && Date.now() < written) await new Promise((r) => setTimeout(r, 10));
}

function inflight(sessions: Iterable<McpSession>): number {
  let n = 0;
  for (const session of sessions) n += session.inflight.size;
  return n;
}

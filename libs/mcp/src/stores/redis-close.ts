import type { RedisClient } from './redis-client.factory';

/** How long a Redis connection gets on shutdown to answer QUIT before it is dropped. */
export const REDIS_QUIT_TIMEOUT_MS = 1_000;

/**
 * Closes a Redis connection on shutdown within `timeoutMs` whatever Redis does. Connected, it is sent QUIT (what
 * was sent before gets its answer); unreachable (reconnecting), or silent past `timeoutMs` (hung), or failing, it
 * is dropped with ioredis's `disconnect()`, which also stops the reconnection attempts. A bare `quit()` is not
 * enough: on a hung Redis it waits for an answer that never comes, and on a connection that is down it waits in
 * the offline queue behind the commands already queued there (a subscriber's SUBSCRIBE, which has no timeout), so
 * the shutdown would never end. Resolves to why the connection was not closed cleanly, or undefined.
 * @internal
 */
export async function closeRedisClient(
  client: RedisClient,
  timeoutMs = REDIS_QUIT_TIMEOUT_MS,
): Promise<string | undefined> {
  const status = client.status;
  if (status === 'end') return undefined;
  if (status === 'wait') {
    // Never connected (lazyConnect): nothing to say goodbye to.
    client.disconnect();
    return undefined;
  }
  if (status === 'reconnecting' || status === 'close') {
    client.disconnect();
    return 'Redis unreachable';
  }
  let timer: NodeJS.Timeout | undefined;
  const silent = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer to QUIT within ${timeoutMs} ms`), timeoutMs);
  });
  const said = client.quit().then(
    () => undefined,
    (error: Error) => error.message,
  );
  const problem = await Promise.race([said, silent]).finally(() => clearTimeout(timer));
  if (problem !== undefined) client.disconnect();
  return problem;
}

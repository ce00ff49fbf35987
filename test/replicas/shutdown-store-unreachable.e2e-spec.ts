import { RunningServer, startDeskHttp } from '../support/server-process';
import { mcpPost, openMcpSession } from '../support/mcp-post';
import { OwnRedis, startOwnRedis } from '../support/own-redis';
import { jsonLines } from '../support/log-lines';

/** Short, so the suite is quick: nothing is in flight, the drain itself takes no time. */
const GRACE_MS = 2_000;
/**
 * What a shutdown may take past the grace period: the answers of aborted calls (1 s), the stores' goodbye to Redis
 * (bounded at 1 s) and the telemetry flush (bounded at 1 s), plus 4.5 s for a loaded machine (5,565 ms from SIGTERM to
 * exit was seen with the whole suite running two suites at a time, and more than 6.5 s with three). A replica waiting
 * on Redis for ever is still told apart: {@link terminate} watches for 15 s, and the exit code says the process ended
 * on its own.
 */
const MARGIN_MS = 3 * 1_000 + 4_500;

const exited = (server: RunningServer) =>
  new Promise<{ code: number | null; signal: string | null }>((ok) =>
    server.process.once('exit', (code, signal) => ok({ code, signal })),
  );

/** How long {@link terminate} watches: past this, the process is reported as still running (and killed after). */
const WATCH_MS = 15_000;

/** SIGTERM, then how the process ended and how long it took (`signal: 'still running'` when it did not). */
async function terminate(server: RunningServer): Promise<{ code: number | null; signal: string | null; ms: number }> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const watched = new Promise<{ code: null; signal: string }>(
    (ok) => (timer = setTimeout(() => ok({ code: null, signal: 'still running' }), WATCH_MS)),
  );
  const exit = exited(server);
  server.process.kill('SIGTERM');
  const end = await Promise.race([exit, watched]).finally(() => clearTimeout(timer));
  return { ...end, ms: Date.now() - started };
}

const notClosedCleanly = (server: RunningServer) =>
  jsonLines(server.stdout!()).filter((l) => l.context === 'McpRedis' && /not be closed cleanly/.test(l.msg));

/**
 * A replica on a Redis that cannot be reached (hung, gone, or never there) still ends within the grace period on
 * SIGTERM, with exit 0 and one clear line, instead of waiting on Redis for ever with its ports already closed.
 */
describe('shutdown with the Redis store unreachable', () => {
  let redis: OwnRedis;
  let server: RunningServer | undefined;

  beforeEach(async () => {
    redis = await startOwnRedis();
  });
  // The server first (SIGKILL 5 s after SIGTERM if it still runs), then its Redis: every child is gone after each
  // test. The Redis is the test's own, saves nothing, and its keys go with it.
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    await redis.stop();
  });

  /** The desk on the test's Redis, with a session and a finished call (so sessions, slots and the bus are in use). */
  async function startReplica(): Promise<RunningServer> {
    server = await startDeskHttp({
      MCP_STORE: 'redis',
      REDIS_URL: redis.url,
      MCP_REDIS_PREFIX: 'test:shutdown:',
      MCP_SHUTDOWN_GRACE_MS: String(GRACE_MS),
      MCP_MAX_CONCURRENT_CALLS: '4',
    });
    return server;
  }

  async function useStores(replica: RunningServer): Promise<void> {
    const session = await openMcpSession(replica.url, replica.token);
    const call = await mcpPost(
      replica.url,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_tickets', arguments: { query: 'vpn' } } },
      replica.token,
      { 'mcp-session-id': session },
    );
    expect(call.status).toBe(200);
    await call.text();
  }

  it('exits 0 promptly, without a warning, when Redis is fine', async () => {
    const replica = await startReplica();
    await useStores(replica);
    const end = await terminate(replica);
    expect(end).toMatchObject({ code: 0, signal: null });
    expect(end.ms).toBeLessThan(GRACE_MS);
    expect(notClosedCleanly(replica)).toEqual([]);
  });

  it('exits 0 within the grace period when Redis hangs (connections open, nothing answered)', async () => {
    const replica = await startReplica();
    await useStores(replica);
    redis.pause();
    const end = await terminate(replica);
    expect(end).toMatchObject({ code: 0, signal: null });
    expect(end.ms).toBeLessThan(GRACE_MS + MARGIN_MS);
    expect(notClosedCleanly(replica)).toHaveLength(1);
  });

  it('exits 0 within the grace period when Redis went away while connected', async () => {
    const replica = await startReplica();
    await useStores(replica);
    await redis.kill();
    // ioredis has seen the connection close and is reconnecting (refused) when the signal comes.
    await new Promise((r) => setTimeout(r, 300));
    const end = await terminate(replica);
    expect(end).toMatchObject({ code: 0, signal: null });
    expect(end.ms).toBeLessThan(GRACE_MS + MARGIN_MS);
    expect(notClosedCleanly(replica)).toHaveLength(1);
  });

  it('exits 0 within the grace period when Redis was never reachable', async () => {
    await redis.kill();
    const replica = await startReplica();
    // A request fails quickly with 503 (the store is down) and the replica keeps retrying in the background.
    const init = await mcpPost(
      replica.url,
      {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'e2e', version: '1' } },
      },
      replica.token,
    );
    expect(init.status).toBe(503);
    const end = await terminate(replica);
    expect(end).toMatchObject({ code: 0, signal: null });
    expect(end.ms).toBeLessThan(GRACE_MS + MARGIN_MS);
    expect(notClosedCleanly(replica)).toHaveLength(1);
  });
});

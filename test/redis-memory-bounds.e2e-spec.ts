import { RunningServer, startDeskHttp } from './support/server-process';
import { OwnRedis, startOwnRedis } from './support/own-redis';
import { cli } from './support/redis-topologies';
import { MODERN_META, messagesOf, modernPost } from './support/modern-post';

const WITH_TASKS = {
  ...MODERN_META,
  'io.modelcontextprotocol/clientCapabilities': {
    elicitation: {},
    extensions: { 'io.modelcontextprotocol/tasks': {} },
  },
};
const MiB = 1024 * 1024;
const usedMemory = (redis: OwnRedis) => Number(/used_memory:(\d+)/.exec(cli(redis.port, ['INFO', 'memory']))![1]);

/**
 * What tasks can make the deployment's Redis hold is bounded below its maxmemory: each caller's kept tasks by
 * `MCP_MAX_TASK_BYTES_PER_SUBJECT`, all of them by `MCP_MAX_TASK_STORE_BYTES`. Before, a caller could keep 100 tasks
 * of 1 MiB each, and two callers filled the shipped `maxmemory 200mb` so that every other caller got 503 while `/ready`
 * said 200. Here a Redis of the test's own with a 48 MiB maxmemory (noeviction, as shipped), tasks limited to 4 MiB
 * per caller and 16 MiB in all, and callers that create tasks with 1 MB arguments until refused.
 */
describe('tasks on Redis: bounded per caller and for the deployment below maxmemory; /ready sees a full Redis', () => {
  let redis: OwnRedis;
  let server: RunningServer;
  beforeAll(async () => {
    redis = await startOwnRedis();
    cli(redis.port, ['CONFIG', 'SET', 'maxmemory', '48mb']);
    cli(redis.port, ['CONFIG', 'SET', 'maxmemory-policy', 'noeviction']);
    server = await startDeskHttp({
      DESK_TASK_TOOLS: 'on',
      MCP_STORE: 'redis',
      REDIS_URL: redis.url,
      MCP_MAX_TASK_BYTES_PER_SUBJECT: String(4 * MiB),
      MCP_MAX_TASK_STORE_BYTES: String(16 * MiB),
    });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await redis?.stop();
  });

  async function rpc(sub: string, method: string, params: Record<string, unknown>) {
    const token = await server.issuer!.mint({ sub });
    const res = await modernPost(server.url, method, params, { token, meta: WITH_TASKS });
    const [message] = await messagesOf(res);
    return { status: res.status, ...message } as { status: number; result?: any; error?: any };
  }
  const ready = async () => (await fetch(new URL('/ready', server.url))).status;

  it('refuses each caller past its bytes, then everyone past the deployment’s, with Redis never near maxmemory', async () => {
    const before = usedMemory(redis);
    const big = { name: 'archive_tickets', arguments: { before: 'x'.repeat(1_000_000) } };
    const refusals: Record<string, { kept: number; reason: string; retryAfter: number }> = {};
    for (const caller of ['c1', 'c2', 'c3', 'c4', 'c5']) {
      let kept = 0;
      for (let i = 0; i < 10; i++) {
        const answer = await rpc(caller, 'tools/call', big);
        if (answer.result?.resultType === 'task') {
          kept++;
          continue;
        }
        expect(answer.status).toBe(429);
        expect(answer.error.code).toBe(-32003);
        refusals[caller] = { kept, reason: answer.error.data.reason, retryAfter: answer.error.data.retryAfter };
        break;
      }
    }
    // Four 1 MB tasks fit in 4 MiB per caller; four callers' 16 tasks fill the 16 MiB: the fifth caller gets none.
    expect(refusals.c1).toEqual({ kept: 4, reason: 'too_many_task_bytes', retryAfter: expect.any(Number) });
    expect(refusals.c1.retryAfter).toBeGreaterThan(3_500); // when its oldest task expires (the default hour)
    for (const caller of ['c2', 'c3', 'c4']) expect(refusals[caller]).toMatchObject({ kept: 4 });
    expect(refusals.c5).toEqual({ kept: 0, reason: 'task_store_full', retryAfter: 30 });
    const grown = usedMemory(redis) - before;
    expect(grown).toBeLessThan(16 * MiB * 1.25); // what Redis really holds, against what the platform counted
    expect(usedMemory(redis)).toBeLessThan(40 * MiB);
    // Everyone else is still served, and the replica is ready.
    expect((await rpc('bystander', 'tools/list', {})).result.tools.length).toBeGreaterThan(0);
    // A small task still fits in what is left; another large one is refused with the documented error.
    const small = await rpc('bystander', 'tools/call', { name: 'bulk_export', arguments: { steps: 1, stepMs: 0 } });
    expect(small.result.resultType).toBe('task');
    expect((await rpc('bystander', 'tools/call', big)).error.data.reason).toBe('task_store_full');
    expect(await ready()).toBe(200);
  });

  it('reports a Redis that refuses writes (maxmemory reached) as not ready, and ready again once it takes them', async () => {
    const limit = cli(redis.port, ['CONFIG', 'GET', 'maxmemory']).split('\n')[1];
    cli(redis.port, ['CONFIG', 'SET', 'maxmemory', '1']);
    try {
      let status = 0;
      for (let i = 0; i < 100 && status !== 503; i++) {
        if (i) await new Promise((r) => setTimeout(r, 100));
        status = await ready();
      }
      expect(status).toBe(503);
      const body = (await (await fetch(new URL('/ready', server.url))).json()) as { checks: Record<string, string> };
      expect(body.checks).toMatchObject({ session_store: 'down', task_store: 'down' });
    } finally {
      cli(redis.port, ['CONFIG', 'SET', 'maxmemory', limit]);
    }
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      if (i) await new Promise((r) => setTimeout(r, 100));
      status = await ready();
    }
    expect(status).toBe(200);
  });
});

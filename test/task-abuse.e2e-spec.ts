import { RunningServer, startDeskHttp } from './support/server-process';
import { mcpPost, openMcpSession } from './support/mcp-post';
import { MODERN_META, messagesOf, modernPost } from './support/modern-post';
import { sleep } from './support/wait';
import { suiteRedis } from './support/replicas';

const WITH_TASKS = {
  ...MODERN_META,
  'io.modelcontextprotocol/clientCapabilities': {
    elicitation: {},
    extensions: { 'io.modelcontextprotocol/tasks': {} },
  },
};

type Rpc = { status: number; result?: any; error?: { code: number; message: string; data?: any } };

/** A caller of `server` with its own token: requests in the 2026-07-28 era declaring the tasks extension. */
async function callerOf(server: RunningServer, sub: string) {
  const token = await server.issuer!.mint({ sub });
  const rpc = async (method: string, params: Record<string, unknown>) => {
    const res = await modernPost(server.url, method, params, { token, meta: WITH_TASKS });
    const [message] = await messagesOf(res);
    return { status: res.status, ...message } as Rpc;
  };
  /** Polls the task until `done` says so (at most 15 s: well under the 10-minute input timeout). */
  const until = async (taskId: string, done: (task: any) => boolean) => {
    let task: any;
    for (let i = 0; i < 150 && !(task && done(task)); i++) {
      if (i) await sleep(100);
      task = (await rpc('tasks/get', { taskId })).result;
    }
    return task;
  };
  return { rpc, until, call: (name: string, args: object) => rpc('tools/call', { name, arguments: args }) };
}

/**
 * Abuse review of tasks: what one caller can make the deployment hold. Finished and cancelled tasks keep their
 * records until they expire, so they count against a cap of kept tasks per caller; a task's arguments and answers
 * are bounded in bytes; a blocked 2025 `tasks/result` holds one of the caller's stream places, so blocked requests
 * cannot pile up. In the default configuration (memory stores), with tight caps.
 */
describe('task abuse: kept records, sizes and blocked waits are bounded per caller', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startDeskHttp({
      DESK_TASK_TOOLS: 'on',
      MCP_MAX_TASKS_PER_SUBJECT: '2',
      MCP_MAX_KEPT_TASKS_PER_SUBJECT: '3',
      MCP_MAX_TASK_BYTES: '8192',
      MCP_MAX_STREAMS_PER_SUBJECT: '2',
      MCP_TASK_POLL_INTERVAL_MS: '200',
    });
  });
  afterAll(() => server?.stop());

  async function rpc(token: string, method: string, params: Record<string, unknown>): Promise<Rpc> {
    const res = await modernPost(server.url, method, params, { token, meta: WITH_TASKS });
    const [message] = await messagesOf(res);
    return { status: res.status, ...message } as Rpc;
  }
  const call = (token: string, name: string, args: Record<string, unknown>) =>
    rpc(token, 'tools/call', { name, arguments: args });

  it('counts cancelled and finished tasks until they expire: create-and-cancel at call rate stops at the cap', async () => {
    const token = await server.issuer!.mint({ sub: 'churner' });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { taskId } = (await call(token, 'bulk_export', { steps: 100, stepMs: 100 })).result;
      expect((await rpc(token, 'tasks/cancel', { taskId })).result).toBeDefined();
      ids.push(taskId);
    }
    const refused = await call(token, 'bulk_export', { steps: 1, stepMs: 0 });
    expect(refused.status).toBe(429);
    expect(refused.error).toMatchObject({ code: -32003, data: { reason: 'too_many_kept_tasks', max: 3 } });
    // The oldest expires after the default ttl (an hour): that is when to retry.
    expect(refused.error!.data.retryAfter).toBeGreaterThan(3_500);
    expect(refused.error!.data.retryAfter).toBeLessThanOrEqual(3_600);
    // Nothing the caller made was dropped to make room, and another caller is not affected.
    for (const taskId of ids) expect((await rpc(token, 'tasks/get', { taskId })).result.status).toBe('cancelled');
    const other = await server.issuer!.mint({ sub: 'bystander' });
    expect((await call(other, 'bulk_export', { steps: 1, stepMs: 0 })).result.resultType).toBe('task');
  });

  it('refuses arguments and answers past MCP_MAX_TASK_BYTES with -32602 task_too_large, keeping nothing', async () => {
    const token = await server.issuer!.mint({ sub: 'hoarder' });
    const big = await call(token, 'archive_tickets', { before: 'x'.repeat(10_000) });
    expect(big.error).toMatchObject({ code: -32602, data: { reason: 'task_too_large', max: 8192 } });
    expect(big.error!.message).toMatch(
      /^Invalid params: the task is too large: its arguments and caller take \d+ bytes/,
    );
    const { taskId } = (await call(token, 'archive_tickets', { before: '2026-01-01' })).result;
    let waiting: any;
    for (let i = 0; i < 50 && waiting?.status !== 'input_required'; i++) {
      await sleep(50);
      waiting = (await rpc(token, 'tasks/get', { taskId })).result;
    }
    const [key] = Object.keys(waiting.inputRequests);
    const answer = { action: 'accept', content: { confirm: true, note: 'y'.repeat(10_000) } };
    const refused = await rpc(token, 'tasks/update', { taskId, inputResponses: { [key]: answer } });
    expect(refused.error).toMatchObject({ code: -32602, data: { reason: 'task_too_large' } });
    // The task still waits for a (smaller) answer.
    expect((await rpc(token, 'tasks/get', { taskId })).result.status).toBe('input_required');
    await rpc(token, 'tasks/cancel', { taskId });
  });

  it('holds a stream place per blocked 2025 tasks/result: past the caller’s cap the next wait is refused (429)', async () => {
    const token = await server.issuer!.mint({ sub: 'blocker' });
    const headers = { 'mcp-session-id': await openMcpSession(server.url, token) };
    const created = await mcpPost(
      server.url,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'bulk_export', arguments: { steps: 300 }, task: {} },
      },
      token,
      headers,
    );
    const [{ result }] = await messagesOf(created);
    const taskId = result.task.taskId as string;
    const wait = (id: number) =>
      mcpPost(server.url, { jsonrpc: '2.0', id, method: 'tasks/result', params: { taskId } }, token, headers);
    const blocked = [wait(2), wait(3)];
    await sleep(500);
    const third = await wait(4);
    expect(third.status).toBe(429);
    expect((await messagesOf(third))[0].error).toMatchObject({ code: -32003, data: { reason: 'stream_limit' } });
    // Cancelled: both waits answer, and their places come back.
    await mcpPost(server.url, { jsonrpc: '2.0', id: 5, method: 'tasks/cancel', params: { taskId } }, token, headers);
    for (const res of await Promise.all(blocked)) {
      const [message] = await messagesOf(res);
      expect(message.error).toMatchObject({ message: 'The task was cancelled before it finished' });
    }
    const again = await messagesOf(await wait(6));
    expect(again[0].error).toMatchObject({ message: 'The task was cancelled before it finished' });
  });
});

/** The deployment's caps, whoever asks: open tasks (the queue's depth) and kept tasks, each with its own error. */
describe('task abuse: the deployment-wide caps on open and kept tasks', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startDeskHttp({
      DESK_TASK_TOOLS: 'on',
      MCP_MAX_TASKS: '2',
      MCP_MAX_KEPT_TASKS: '3',
      MCP_MAX_TASKS_PER_SUBJECT: '1',
      MCP_MAX_KEPT_TASKS_PER_SUBJECT: '2',
    });
  });
  afterAll(() => server?.stop());

  const as = async (sub: string) => {
    const caller = await callerOf(server, sub);
    return { ...caller, call: (args: Record<string, unknown>) => caller.call('bulk_export', args) };
  };

  it('refuses past the open tasks of the deployment (task_queue_full), then past its kept tasks (task_store_full)', async () => {
    const [a, b, c, d] = await Promise.all(['a', 'b', 'c', 'd'].map(as));
    const long = { steps: 300, stepMs: 100 };
    const first = (await a.call(long)).result.taskId as string;
    expect((await b.call(long)).result.resultType).toBe('task');
    const full = await c.call(long);
    expect(full.status).toBe(429);
    expect(full.error).toMatchObject({ code: -32003, data: { reason: 'task_queue_full', max: 2, retryAfter: 5 } });
    // A place opens when a task ends; the cancelled one is still kept until it expires.
    await a.rpc('tasks/cancel', { taskId: first });
    const quick = (await c.call({ steps: 1, stepMs: 0 })).result.taskId as string;
    for (let i = 0; i < 50 && (await c.rpc('tasks/get', { taskId: quick })).result.status !== 'completed'; i++)
      await sleep(50);
    const kept = await d.call({ steps: 1, stepMs: 0 });
    expect(kept.status).toBe(429);
    expect(kept.error).toMatchObject({ code: -32003, data: { reason: 'task_store_full', max: 3, retryAfter: 30 } });
  });
});

/**
 * A cancelled task frees its places at once, whatever its run waits on: a tool waiting for the answer to its question
 * held a worker place and one of its caller's run places until the input timeout (10 minutes), so cancelled tasks
 * starved everyone's later tasks. Two worker places, two run places per caller; on both stores.
 */
describe.each(['memory', 'redis'] as const)(
  'task abuse: cancelling a task that waits for input (%s store)',
  (store) => {
    const redis = suiteRedis();
    let server: RunningServer;
    beforeAll(async () => {
      server = await startDeskHttp({
        DESK_TASK_TOOLS: 'on',
        MCP_TASK_CONCURRENCY: '2',
        MCP_MAX_RUNNING_TASKS_PER_SUBJECT: '2',
        MCP_MAX_TASK_BYTES: '8192',
        ...(store === 'redis' ? { MCP_STORE: 'redis', MCP_REDIS_PREFIX: redis.prefix } : {}),
      });
    });
    afterAll(async () => {
      await server?.stop();
      await redis.cleanup();
    });

    const as = (sub: string) => callerOf(server, sub);

    it('frees the worker place and the caller’s run place at once: later tasks of anyone run', async () => {
      const asker = await as('asker');
      const ids: string[] = [];
      for (let i = 0; i < 2; i++)
        ids.push((await asker.call('archive_tickets', { before: `2026-0${i + 1}-01` })).result.taskId);
      for (const taskId of ids)
        expect((await asker.until(taskId, (t) => t.status === 'input_required')).status).toBe('input_required');
      for (const taskId of ids) expect((await asker.rpc('tasks/cancel', { taskId })).result).toBeDefined();
      // Both worker places and both of the asker's run places are free again: its own next task and a bystander's run.
      const bystander = await as('bystander');
      const mine = (await asker.call('bulk_export', { steps: 1, stepMs: 0 })).result.taskId as string;
      const theirs = (await bystander.call('bulk_export', { steps: 1, stepMs: 0 })).result.taskId as string;
      expect((await asker.until(mine, (t) => t.status === 'completed')).status).toBe('completed');
      expect((await bystander.until(theirs, (t) => t.status === 'completed')).status).toBe('completed');
      for (const taskId of ids) expect((await asker.rpc('tasks/get', { taskId })).result.status).toBe('cancelled');
    });

    it('refuses a question that would repeat a large argument past MCP_MAX_TASK_BYTES when it is asked', async () => {
      const asker = await as('repeater');
      // The argument fits; the question quotes it, and the record with both would not.
      const taskId = (await asker.call('archive_tickets', { before: 'x'.repeat(6_000) })).result.taskId as string;
      const done = await asker.until(taskId, (t) => ['completed', 'failed'].includes(t.status));
      // Failed at once with the size error: never answerable, so not held until the input timeout.
      expect(done).toMatchObject({ status: 'failed', error: { code: -32602, data: { reason: 'task_too_large' } } });
      expect(done.error.message).toMatch(/the task is too large: with the question "confirm" it would take \d+ bytes/);
    });
  },
);

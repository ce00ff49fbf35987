import { RunningServer, startDeskHttp } from './support/server-process';
import { MODERN_META, messagesOf, modernPost } from './support/modern-post';
import { sleep, waitFor } from './support/wait';
import { listen } from './support/listen-stream';
import { managementUrlOf } from './support/management-url';

const EXTENSION = 'io.modelcontextprotocol/tasks';
/** A 2026-07-28 request that declares the tasks extension. */
const WITH_TASKS = {
  ...MODERN_META,
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, extensions: { [EXTENSION]: {} } },
};

/**
 * Long-running tools as tasks on one server (in-memory store, in-process queue: the embedded default), driven over
 * HTTP: the 2026-07-28 extension on its wire, and what operators see. The 2025-11-25 utility is in
 * tasks-utility-2025.e2e-spec.ts; the replica suites prove the Redis queue.
 */
describe('tasks: the 2026-07-28 extension on one server', () => {
  let server: RunningServer;
  let alice: string;
  let mallory: string;

  beforeAll(async () => {
    server = await startDeskHttp({
      MCP_METRICS_PORT: '0',
      DESK_TASK_TOOLS: 'on',
      MCP_MAX_TASKS_PER_SUBJECT: '3',
      MCP_TASK_POLL_INTERVAL_MS: '200',
    });
    alice = await server.issuer!.mint({ sub: 'alice' });
    mallory = await server.issuer!.mint({ sub: 'mallory' });
  });
  afterAll(() => server?.stop());

  /** One 2026-07-28 request's JSON-RPC answer. */
  async function rpc(
    method: string,
    params: Record<string, unknown>,
    o: { token?: string; meta?: Record<string, unknown> } = {},
  ) {
    const res = await modernPost(server.url, method, params, { token: o.token ?? alice, meta: o.meta ?? WITH_TASKS });
    const [message] = await messagesOf(res);
    return { status: res.status, ...message } as { status: number; result?: any; error?: any };
  }
  const call = (name: string, args: Record<string, unknown>, o?: { token?: string; meta?: Record<string, unknown> }) =>
    rpc('tools/call', { name, arguments: args }, o);
  async function settle(taskId: string, token = alice) {
    for (let i = 0; i < 100; i++) {
      const { result } = await rpc('tasks/get', { taskId }, { token });
      if (['completed', 'failed', 'cancelled'].includes(result.status)) return result;
      await sleep(100);
    }
    throw new Error(`task ${taskId} did not finish`);
  }

  describe('2026-07-28, the tasks extension', () => {
    it('advertises the extension in server/discover, and no 2025 tasks capability', async () => {
      const { result } = await rpc('server/discover', {});
      expect(result.capabilities.extensions).toEqual({ [EXTENSION]: {} });
      expect(result.capabilities.tasks).toBeUndefined();
    });

    it('answers a task tool with a task handle that tasks/get resolves at once, then shows progress and the result', async () => {
      const created = await call('bulk_export', { steps: 8, stepMs: 150 });
      expect(created.result).toMatchObject({
        resultType: 'task',
        status: 'working',
        ttlMs: 3_600_000,
        pollIntervalMs: 200,
      });
      const { taskId } = created.result;
      expect(taskId).toMatch(/^[A-Za-z0-9_-]{22}$/); // 128 random bits
      expect(created.result).not.toHaveProperty('result');
      const first = await rpc('tasks/get', { taskId });
      expect(first.result).toMatchObject({ resultType: 'complete', taskId });
      let progress: string | undefined;
      for (let i = 0; i < 40 && !progress; i++) {
        await sleep(100);
        progress = (await rpc('tasks/get', { taskId })).result.statusMessage;
      }
      expect(progress).toMatch(/^batch \d of 8 exported$/);
      const done = await settle(taskId);
      expect(done).toMatchObject({ status: 'completed', result: { structuredContent: { exported: 8, task: taskId } } });
      expect(done.result._meta?.['io.modelcontextprotocol/related-task']).toBeUndefined();
    });

    it('runs an optional task tool in the call for a client without the extension; refuses a required one with -32021', async () => {
      const plain = await call('bulk_export', { steps: 1, stepMs: 0 }, { meta: MODERN_META });
      expect(plain.result).toMatchObject({ resultType: 'complete', structuredContent: { exported: 1, task: null } });
      const refused = await call('provision_desk', { steps: 1 }, { meta: MODERN_META });
      expect(refused.error).toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { extensions: { [EXTENSION]: {} } } },
      });
      const get = await rpc('tasks/get', { taskId: 'x' }, { meta: MODERN_META });
      expect(get.error.code).toBe(-32021);
    });

    it('asks the user while the task runs: input_required with inputRequests, answered with tasks/update', async () => {
      const { taskId } = (await call('archive_tickets', { before: '2026-01-01' })).result;
      let task: any;
      for (let i = 0; i < 50; i++) {
        task = (await rpc('tasks/get', { taskId })).result;
        if (task.status === 'input_required') break;
        await sleep(50);
      }
      expect(task).toMatchObject({
        status: 'input_required',
        inputRequests: { confirm: { method: 'elicitation/create', params: { mode: 'form' } } },
      });
      // An answer to a question never asked is ignored; the real one resumes the task.
      expect((await rpc('tasks/update', { taskId, inputResponses: { nope: { action: 'accept' } } })).result).toEqual(
        expect.objectContaining({ resultType: 'complete' }),
      );
      expect((await rpc('tasks/get', { taskId })).result.status).toBe('input_required');
      const ack = await rpc('tasks/update', {
        taskId,
        inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
      });
      expect(Object.keys(ack.result).sort()).toEqual(['_meta', 'resultType']);
      expect((await settle(taskId)).result.content[0].text).toBe('Archived tickets closed before 2026-01-01');
    });

    it('cancels a running task from a request: cancelled at once, and it stays cancelled', async () => {
      const { taskId } = (await call('provision_desk', { steps: 100, stepMs: 100 })).result;
      await sleep(150);
      const ack = await rpc('tasks/cancel', { taskId });
      expect(ack.result.resultType).toBe('complete');
      expect((await rpc('tasks/get', { taskId })).result).toMatchObject({ status: 'cancelled' });
      await sleep(300);
      expect((await rpc('tasks/get', { taskId })).result.status).toBe('cancelled');
      // Idempotent: cancelling a final task is acknowledged again.
      expect((await rpc('tasks/cancel', { taskId })).result.resultType).toBe('complete');
    });

    it('stops a run at its tool’s time limit (task.timeoutMs): failed with -32004 and no result', async () => {
      const { taskId } = (await call('slow_report', { steps: 50, stepMs: 100 })).result;
      const started = Date.now();
      const done = await settle(taskId);
      expect(done).toMatchObject({ status: 'failed', error: { code: -32004 } });
      expect(done.result).toBeUndefined();
      // One second of a five-second run: it was stopped, not left to finish.
      expect(Date.now() - started).toBeLessThan(4_000);
      expect(done.statusMessage ?? '').not.toBe('section 50 of 50');
      // Within its limit the same tool completes.
      const quick = (await call('slow_report', { steps: 2, stepMs: 10 })).result;
      expect((await settle(quick.taskId)).result.structuredContent).toEqual({ sections: 2 });
    });

    it("tells another subject that someone's task does not exist, exactly as for an id never issued", async () => {
      const { taskId } = (await call('bulk_export', { steps: 20, stepMs: 100 })).result;
      const unknown = await rpc('tasks/get', { taskId: 'AAAAAAAAAAAAAAAAAAAAAA' }, { token: mallory });
      for (const [method, params] of [
        ['tasks/get', { taskId }],
        ['tasks/update', { taskId, inputResponses: {} }],
        ['tasks/cancel', { taskId }],
      ] as const) {
        const answer = await rpc(method, params, { token: mallory });
        expect(answer.error).toEqual({ ...unknown.error, data: answer.error.data });
        expect(answer.error).toMatchObject({ code: -32602, message: 'Failed to retrieve task: Task not found' });
      }
      expect((await rpc('tasks/get', { taskId })).result.status).toBe('working');
      await rpc('tasks/cancel', { taskId });
    });

    it('caps open tasks per subject (-32003 naming the cap); a finished one frees its place', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await call('provision_desk', { steps: 100, stepMs: 100 })).result.taskId);
      const over = await call('provision_desk', { steps: 1 });
      expect(over.error).toMatchObject({ code: -32003, data: { reason: 'too_many_tasks', max: 3 } });
      // Another subject has its own places.
      const other = await call('bulk_export', { steps: 1, stepMs: 0 }, { token: mallory });
      expect(other.result.resultType).toBe('task');
      await rpc('tasks/cancel', { taskId: ids[0] });
      expect((await call('bulk_export', { steps: 1, stepMs: 0 })).result.resultType).toBe('task');
      for (const taskId of ids) await rpc('tasks/cancel', { taskId });
    });

    it('sends notifications/tasks on a listen stream that follows the task (the caller’s own tasks only)', async () => {
      const { taskId } = (await call('archive_tickets', { before: '2026-02-01' })).result;
      const stream = await listen(server.url, alice, { taskIds: [taskId, 'AAAAAAAAAAAAAAAAAAAAAA'] }, 7, WITH_TASKS);
      const strangers = await listen(server.url, mallory, { taskIds: [taskId] }, 8, WITH_TASKS);
      try {
        expect(stream.frames[0].params.notifications).toEqual({ taskIds: [taskId] });
        expect(strangers.frames[0].params.notifications).toEqual({ taskIds: [] });
        const tasks = () => stream.frames.filter((f) => f.method === 'notifications/tasks').map((f) => f.params);
        await waitFor(() => tasks().some((t) => t.status === 'input_required'), 5_000, 'input_required');
        expect(tasks().find((t) => t.status === 'input_required')).toMatchObject({
          taskId,
          inputRequests: { confirm: { method: 'elicitation/create' } },
          _meta: { 'io.modelcontextprotocol/subscriptionId': 7 },
        });
        await rpc('tasks/update', {
          taskId,
          inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
        });
        await waitFor(() => tasks().some((t) => t.status === 'completed'), 5_000, 'completed');
        expect(tasks().find((t) => t.status === 'completed').result.content[0].text).toContain('2026-02-01');
        expect(strangers.frames.filter((f) => f.method === 'notifications/tasks')).toEqual([]);
      } finally {
        await stream.close();
        await strangers.close();
      }
      const refused = await listen(server.url, alice, { taskIds: [taskId] }, 9);
      expect(refused.body?.error?.code).toBe(-32021);
    });

    it('checks Mcp-Name against the task id, and has no tasks/result or tasks/list in this era', async () => {
      const res = await modernPost(
        server.url,
        'tasks/get',
        { taskId: 'AAAAAAAAAAAAAAAAAAAAAA' },
        { token: alice, meta: WITH_TASKS, headers: { 'mcp-name': 'another-task' } },
      );
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32020);
      for (const method of ['tasks/result', 'tasks/list'])
        expect((await rpc(method, { taskId: 'AAAAAAAAAAAAAAAAAAAAAA' })).error.code).toBe(-32601);
    });
  });

  it('shows tasks to operators: /ready probes the task store and queue, metrics count tasks by tool, state and outcome', async () => {
    const ready = (await (await fetch(new URL('/ready', server.url))).json()) as { checks: Record<string, unknown> };
    expect(ready.checks).toMatchObject({ task_store: 'ok', task_queue: 'ok' });
    const metrics = await (await fetch(await managementUrlOf(server))).text();
    expect(metrics).toMatch(/^mcp_tasks_created_total\{tool="bulk_export",service="desk"\} [1-9]/m);
    expect(metrics).toMatch(/^mcp_task_runs_total\{tool="provision_desk",status="cancelled",service="desk"\} [1-9]/m);
    expect(metrics).toMatch(/^mcp_task_queue_wait_seconds_count\{service="desk",tool="bulk_export"\} [1-9]/m);
    expect(metrics).toMatch(
      /^mcp_task_run_duration_seconds_count\{service="desk",tool="bulk_export",status="completed"\} [1-9]/m,
    );
    expect(metrics).toMatch(/^mcp_tasks\{state="open",service="desk"\} \d+/m);
  });

  it('counts a running task in mcp_tasks (open in the deployment, running on this replica)', async () => {
    const { taskId } = (await call('bulk_export', { steps: 100, stepMs: 100 })).result;
    try {
      for (let i = 0; i < 50 && !(await rpc('tasks/get', { taskId })).result.statusMessage; i++) await sleep(100);
      const metrics = await (await fetch(await managementUrlOf(server))).text();
      expect(metrics).toMatch(/^mcp_tasks\{state="running",service="desk"\} [1-9]/m);
      expect(metrics).toMatch(/^mcp_tasks\{state="open",service="desk"\} [1-9]/m);
    } finally {
      await rpc('tasks/cancel', { taskId });
    }
  });
});

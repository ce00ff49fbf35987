import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { RunningServer, startDeskHttp } from './support/server-process';
import { MODERN_META, messagesOf, modernPost } from './support/modern-post';
import { rpcError } from './support/rpc-error';
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
 * HTTP: the 2026-07-28 extension on its wire, the 2025-11-25 utility with the official 1.x client. The same store and
 * queue serve both; the replica suites prove the Redis queue.
 */
describe('tasks: the 2026-07-28 extension and the 2025-11-25 utility on one endpoint', () => {
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

  describe('2025-11-25, the tasks utility (official SDK 1.x client)', () => {
    let client: Client;
    const connect = async (token: string) => {
      const c = new Client({ name: 'tasks-e2e', version: '1.0.0' }, { capabilities: { elicitation: {} } });
      await c.connect(
        new StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      return c;
    };
    beforeEach(async () => (client = await connect(alice)));
    afterEach(() => client.close());

    it('declares the tasks capability and each tool’s execution.taskSupport', async () => {
      expect(client.getServerCapabilities()?.tasks).toEqual({
        list: {},
        cancel: {},
        requests: { tools: { call: {} } },
      });
      const { tools } = await client.listTools();
      const support = Object.fromEntries(tools.map((t) => [t.name, t.execution?.taskSupport]));
      expect(support).toMatchObject({
        bulk_export: 'optional',
        provision_desk: 'required',
        archive_tickets: 'optional',
      });
      expect(support.search_tickets).toBeUndefined();
    });

    it('drives a task to its result with callToolStream (task created, polled, tasks/result)', async () => {
      const seen: string[] = [];
      let result: any;
      for await (const message of client.experimental.tasks.callToolStream(
        { name: 'bulk_export', arguments: { steps: 3, stepMs: 50 } },
        undefined,
        { task: { ttl: 60_000 } },
      )) {
        seen.push(message.type);
        if (message.type === 'result') result = message.result;
        if (message.type === 'error') throw message.error;
      }
      expect(seen[0]).toBe('taskCreated');
      expect(result.structuredContent).toMatchObject({ exported: 3 });
      expect(result._meta['io.modelcontextprotocol/related-task'].taskId).toEqual(expect.any(String));
    });

    it('asks the task’s question on the tasks/result stream, tied to the task, and goes on with the answer', async () => {
      const asked: any[] = [];
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        asked.push(request.params);
        return { action: 'accept', content: { confirm: true } };
      });
      const created = await client.request(
        { method: 'tools/call', params: { name: 'archive_tickets', arguments: { before: '2025-06-01' }, task: {} } },
        CreateTaskResultSchema,
      );
      const taskId = created.task.taskId;
      const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
      expect(asked).toHaveLength(1);
      expect(asked[0]._meta['io.modelcontextprotocol/related-task']).toEqual({ taskId });
      expect((result as any).content[0].text).toBe('Archived tickets closed before 2025-06-01');
    });

    it('lists only the caller’s tasks, and refuses to cancel a finished one with -32602', async () => {
      const created = await client.request(
        { method: 'tools/call', params: { name: 'bulk_export', arguments: { steps: 1, stepMs: 0 }, task: {} } },
        CreateTaskResultSchema,
      );
      const taskId = created.task.taskId;
      await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
      const mine = await client.experimental.tasks.listTasks();
      expect(mine.tasks.map((t) => t.taskId)).toContain(taskId);
      const other = await connect(mallory);
      try {
        expect((await other.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).not.toContain(taskId);
        expect((await rpcError(other.experimental.tasks.getTask(taskId))).code).toBe(-32602);
      } finally {
        await other.close();
      }
      const refused = await rpcError(client.experimental.tasks.cancelTask(taskId));
      expect(refused.code).toBe(-32602);
      expect(refused.message).toContain("already in terminal status 'completed'");
    });

    it('tells the session of its task’s status changes (notifications/tasks/status)', async () => {
      const statuses: string[] = [];
      client.fallbackNotificationHandler = async (n) => {
        if (n.method === 'notifications/tasks/status') statuses.push((n.params as { status: string }).status);
      };
      // The session's standalone stream carries them: the SDK opens it after initialize.
      await sleep(200);
      const created = await client.request(
        { method: 'tools/call', params: { name: 'bulk_export', arguments: { steps: 2, stepMs: 50 }, task: {} } },
        CreateTaskResultSchema,
      );
      await waitFor(() => statuses.includes('completed'), 5_000, 'a completed status notification');
      expect((await client.experimental.tasks.getTask(created.task.taskId)).status).toBe('completed');
    });

    it('cancels a running task: the answer is the task, cancelled', async () => {
      const created = await client.request(
        { method: 'tools/call', params: { name: 'provision_desk', arguments: { steps: 100, stepMs: 100 }, task: {} } },
        CreateTaskResultSchema,
      );
      const cancelled = await client.experimental.tasks.cancelTask(created.task.taskId);
      expect(cancelled).toMatchObject({ taskId: created.task.taskId, status: 'cancelled' });
    });

    it('follows the utility’s rules: -32601 for a required tool called without task, and for a plain tool called as one', async () => {
      expect((await rpcError(client.callTool({ name: 'provision_desk', arguments: { steps: 1 } }))).code).toBe(-32601);
      const asTask = client.request(
        { method: 'tools/call', params: { name: 'search_tickets', arguments: { query: 'x' }, task: {} } },
        CreateTaskResultSchema,
      );
      expect((await rpcError(asTask)).code).toBe(-32601);
    });
  });
});

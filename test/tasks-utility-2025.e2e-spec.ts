import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { RunningServer, startDeskHttp } from './support/server-process';
import { MODERN_META, messagesOf, modernPost } from './support/modern-post';
import { rpcError } from './support/rpc-error';
import { sleep, waitFor } from './support/wait';

/**
 * The 2025-11-25 tasks utility on one server (in-memory store, in-process queue), driven by the official 1.x client:
 * the capability, `execution.taskSupport`, the `task` parameter, blocking `tasks/result` with the task's questions,
 * `tasks/list`, `tasks/cancel` and status notifications. The 2026-07-28 extension is in tasks.e2e-spec.ts.
 */
describe('tasks: the 2025-11-25 utility', () => {
  let server: RunningServer;
  let alice: string;
  let mallory: string;

  beforeAll(async () => {
    server = await startDeskHttp({ DESK_TASK_TOOLS: 'on', MCP_TASK_POLL_INTERVAL_MS: '200' });
    alice = await server.issuer!.mint({ sub: 'alice' });
    mallory = await server.issuer!.mint({ sub: 'mallory' });
  });
  afterAll(() => server?.stop());

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

  /** One store and queue for both eras, and `tasks/list` in pages: a server of its own with two tasks a page. */
  describe('both eras on one task store; tasks/list pages', () => {
    let paged: RunningServer;
    let client: Client;
    let token: string;
    const WITH_TASKS = {
      ...MODERN_META,
      'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
    };
    const modern = async (method: string, params: Record<string, unknown>) => {
      const [message] = await messagesOf(await modernPost(paged.url, method, params, { token, meta: WITH_TASKS }));
      return message as { result?: any; error?: any };
    };

    beforeAll(async () => {
      paged = await startDeskHttp({ DESK_TASK_TOOLS: 'on', MCP_PAGE_SIZE: '2', MCP_TASK_POLL_INTERVAL_MS: '200' });
      token = await paged.issuer!.mint({ sub: 'pager' });
      client = new Client({ name: 'tasks-pages', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(paged.url), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
    });
    afterAll(async () => {
      await client?.close();
      await paged?.stop();
    });

    it('reads a task created in one era from the other, and lists it in 2025 pages with nextCursor', async () => {
      const modernId = (await modern('tools/call', { name: 'bulk_export', arguments: { steps: 1, stepMs: 0 } })).result
        .taskId as string;
      const legacyIds: string[] = [];
      for (let i = 0; i < 2; i++) {
        const created = await client.request(
          { method: 'tools/call', params: { name: 'bulk_export', arguments: { steps: 1, stepMs: 0 }, task: {} } },
          CreateTaskResultSchema,
        );
        legacyIds.push(created.task.taskId);
      }
      // 2026-07-28 created, read by the 2025 session (its own shape), and the other way round.
      for (let i = 0; i < 50 && (await client.experimental.tasks.getTask(modernId)).status !== 'completed'; i++)
        await sleep(100);
      const legacyView = await client.experimental.tasks.getTask(modernId);
      expect(legacyView).toMatchObject({ taskId: modernId, status: 'completed' });
      expect(legacyView).not.toHaveProperty('resultType');
      const modernView = (await modern('tasks/get', { taskId: legacyIds[0] })).result;
      expect(modernView).toMatchObject({ taskId: legacyIds[0], resultType: 'complete' });
      // Three tasks, two a page: newest first, a cursor after the first page only.
      const first = await client.experimental.tasks.listTasks();
      expect(first.tasks).toHaveLength(2);
      expect(typeof first.nextCursor).toBe('string');
      const second = await client.experimental.tasks.listTasks(first.nextCursor);
      expect(second.nextCursor).toBeUndefined();
      const listed = [...first.tasks, ...second.tasks].map((t) => t.taskId);
      expect(listed).toEqual([legacyIds[1], legacyIds[0], modernId]);
      expect((await rpcError(client.experimental.tasks.listTasks('not-a-cursor'))).code).toBe(-32602);
    });
  });
});

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { RunningServer, startDeskHttp } from './support/server-process';
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
});

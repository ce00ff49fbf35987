import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { RunningServer } from '../support/server-process';
import { startReplicas, stopReplicas, suiteRedis } from '../support/replicas';
import { TestIssuer } from '../support/test-issuer';
import { RoundRobinProxy, startRoundRobinProxy } from '../support/round-robin-proxy';

/**
 * The 2025-11-25 tasks utility across three desk replicas on Redis behind a round-robin proxy, driven by the official
 * 1.x client through one session: the task is created, polled, its question asked on the blocking `tasks/result` and
 * answered, listed and cancelled, with the session's requests landing on different replicas (read from the proxy's
 * log) and the task run by whichever worker took it.
 */
describe('the 2025-11-25 tasks utility across three replicas (official SDK 1.x)', () => {
  const { prefix, cleanup } = suiteRedis();
  let issuer: TestIssuer;
  let replicas: RunningServer[];
  let proxy: RoundRobinProxy;
  let client: Client;
  let sessionId: string | undefined;
  const asked: Record<string, unknown>[] = [];

  beforeAll(async () => {
    issuer = await TestIssuer.start();
    replicas = await startReplicas(3, {
      ...issuer.env(),
      MCP_STORE: 'redis',
      MCP_REDIS_PREFIX: prefix,
      DESK_TASK_TOOLS: 'on',
      MCP_TASK_POLL_INTERVAL_MS: '200',
    });
    proxy = await startRoundRobinProxy(replicas.map((r) => new URL(r.url).origin));
    client = new Client({ name: 'tasks-sdk1-replicas', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params as Record<string, unknown>);
      return { action: 'accept', content: { confirm: true } };
    });
    const transport = new StreamableHTTPClientTransport(new URL('/mcp', proxy.origin), {
      requestInit: { headers: { authorization: `Bearer ${await issuer.mint({ sub: 'alice' })}` } },
    });
    await client.connect(transport);
    sessionId = transport.sessionId;
  });
  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await proxy?.close();
    await stopReplicas(replicas ?? []);
    await issuer?.close();
    await cleanup();
  });

  const upstreamsOf = (rpc: string) =>
    new Set(proxy.log.filter((e) => e.session === sessionId && e.rpc === rpc).map((e) => e.upstream));

  it('creates, polls and finishes a task whose question is answered on tasks/result, across replicas', async () => {
    const created = await client.request(
      { method: 'tools/call', params: { name: 'archive_tickets', arguments: { before: '2026-04-01' }, task: {} } },
      CreateTaskResultSchema,
    );
    const { taskId } = created.task;
    for (let i = 0; i < 3; i++) await client.experimental.tasks.getTask(taskId);
    const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(result.content).toEqual([{ type: 'text', text: 'Archived tickets closed before 2026-04-01' }]);
    expect(result._meta?.['io.modelcontextprotocol/related-task']).toEqual({ taskId });
    expect(asked).toHaveLength(1);
    expect((asked[0]._meta as Record<string, unknown>)['io.modelcontextprotocol/related-task']).toEqual({ taskId });
    // The session's polls went to more than one replica.
    expect(upstreamsOf('tasks/get').size).toBeGreaterThan(1);
    const listed = await client.experimental.tasks.listTasks();
    expect(listed.tasks.find((t) => t.taskId === taskId)).toMatchObject({ status: 'completed' });
  });

  it('cancels a running task through whichever replica the request lands on', async () => {
    const created = await client.request(
      { method: 'tools/call', params: { name: 'provision_desk', arguments: { steps: 100, stepMs: 100 }, task: {} } },
      CreateTaskResultSchema,
    );
    const { taskId } = created.task;
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe('working');
    expect(await client.experimental.tasks.cancelTask(taskId)).toMatchObject({ taskId, status: 'cancelled' });
    for (let i = 0; i < 3; i++) expect((await client.experimental.tasks.getTask(taskId)).status).toBe('cancelled');
    // Created, cancelled and read back through the three replicas in turn.
    const session = proxy.log.filter((e) => e.session === sessionId && e.rpc?.match(/^(tools\/call|tasks\/)/));
    expect(new Set(session.slice(-5).map((e) => e.upstream)).size).toBe(3);
  });
});

import { Container } from '../support/kubernetes-pods';
import { MODERN_META, messagesOf, modernPost } from '../support/modern-post';
import { suiteRedis } from '../support/replicas';
import { DESK_MAIN, RunningServer, startHttpServer } from '../support/server-process';
import { renderTaskWorkers, runsTasks } from '../support/task-workers-overlay';
import { TestIssuer } from '../support/test-issuer';
import { sleep } from '../support/wait';

/**
 * The task-workers component for real: a desk replica with the rendered mcp-server's task settings and one with the
 * worker's, on the machine's Redis, where a task created through the first is run by the second (the rendered
 * files themselves are checked in kubernetes-task-workers.e2e-spec.ts).
 */
describe('Kubernetes: the task-workers component, run', () => {
  const rendered = renderTaskWorkers();
  const { server, worker, podEnv } = rendered;
  afterAll(() => rendered.cleanup());

  /**
   * The rendered task settings of each Deployment (the store, the worker switch, the drain) on the desk fixture,
   * with the machine's Redis under this suite's key prefix standing in for the Secret's REDIS_URL.
   */
  describe('run: a replica with the rendered mcp-server settings and one with the mcp-worker settings', () => {
    const { prefix, cleanup } = suiteRedis();
    const taskSettings = (c: Container): Record<string, string> =>
      Object.fromEntries(Object.entries(podEnv(c)).filter(([k]) => /^MCP_(STORE|TASK_\w+|SHUTDOWN_GRACE_MS)$/.test(k)));
    const local = { MCP_REDIS_PREFIX: prefix, DESK_TASK_TOOLS: 'on' };
    let issuer: TestIssuer;
    let front: RunningServer | undefined;
    let runner: RunningServer | undefined;
    let token: string;

    beforeAll(async () => {
      issuer = await TestIssuer.start();
      token = await issuer.mint({ sub: 'alice' });
      [front, runner] = await Promise.all([
        startHttpServer(DESK_MAIN, { ...issuer.env(), ...taskSettings(server), ...local }),
        startHttpServer(DESK_MAIN, { ...issuer.env(), ...taskSettings(worker), ...local }),
      ]);
    }, 60_000);
    afterAll(async () => {
      await Promise.all([front?.stop(), runner?.stop()]);
      await issuer?.close();
      await cleanup();
    });

    it('the settings are the ones the overlay renders', () => {
      expect(taskSettings(server)).toEqual({ MCP_STORE: 'redis', MCP_TASK_WORKER: 'false' });
      expect(taskSettings(worker)).toMatchObject({ MCP_STORE: 'redis' });
      expect(runsTasks(taskSettings(worker))).toBe(true);
    });

    it('a task created through the request replica is run by the worker', async () => {
      const tasks = {
        ...MODERN_META,
        'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
      };
      const rpc = async (method: string, params: Record<string, unknown>) => {
        const res = await modernPost(front!.url, method, params, { token, meta: tasks });
        const [message] = await messagesOf(res);
        return message as { result?: any; error?: unknown };
      };
      const created = await rpc('tools/call', { name: 'bulk_export', arguments: { steps: 3, stepMs: 50 } });
      expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
      const { taskId } = created.result as { taskId: string };
      let task: any;
      for (const deadline = Date.now() + 20_000; Date.now() < deadline; await sleep(100)) {
        task = (await rpc('tasks/get', { taskId })).result;
        if (['completed', 'failed', 'cancelled'].includes(task?.status)) break;
      }
      expect(task).toMatchObject({ status: 'completed', result: { structuredContent: { exported: 3, task: taskId } } });
      expect(task.result.structuredContent.by).toBe(runner!.process.pid);
      expect(task.result.structuredContent.by).not.toBe(front!.process.pid);
    }, 40_000);

    it('a request-only replica without the Redis store stops at boot, naming the Redis store', async () => {
      const boot = startHttpServer(DESK_MAIN, { ...issuer.env(), ...taskSettings(server), MCP_STORE: 'memory' });
      await expect(boot).rejects.toThrow(/server exited with [1-9][\s\S]*MCP_TASK_WORKER[\s\S]*needs the Redis store/);
    }, 30_000);
  });
});

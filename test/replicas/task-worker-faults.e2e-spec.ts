import { RunningServer } from '../support/server-process';
import { startReplicas } from '../support/replicas';
import { RoundRobinProxy, startRoundRobinProxy } from '../support/round-robin-proxy';
import { CuttableProxy, startCuttableProxy } from '../support/tcp-cut-proxy';
import { taskReplicaSuite } from '../support/task-replicas';
import { sleep } from '../support/wait';

/**
 * Tasks when things fail, on desk replicas on the machine's Redis, three behind a round-robin proxy: the replica
 * running a task killed mid-run (SIGKILL) hands it on, run again elsewhere when the tool is idempotent, failed with a
 * clear message when not; a Redis cut mid-task is answered with 503s while the task still completes. A front replica
 * and one worker at a time show what only a known runner can: the front is ready with no task yet, and a task whose
 * workers keep dying ends failed instead of staying open.
 */
describe('tasks when a worker dies or Redis is cut', () => {
  const suite = taskReplicaSuite();
  const { servers, closers, envFor, getTask, createTask, until, settle, kill, runnerOf } = suite;

  /** Three workers of `group` behind a round-robin proxy, started in the calling describe's beforeAll. */
  function threeBehindProxy(group: string, extra: Record<string, string> = {}) {
    const trio = { replicas: [] as RunningServer[], proxy: undefined as unknown as RoundRobinProxy, mcp: '' };
    beforeAll(async () => {
      trio.replicas = await startReplicas(3, envFor(group, extra));
      servers.push(...trio.replicas);
      trio.proxy = await startRoundRobinProxy(trio.replicas.map((r) => new URL(r.url).origin));
      closers.push(() => trio.proxy.close());
      trio.mcp = `${trio.proxy.origin}/mcp`;
    }, 120_000);
    const recordOf = async (taskId: string) => {
      const json = await suite.redis.hget(`${suite.prefix}${group}:{tasks}:task:${taskId}`, 'j');
      return json ? (JSON.parse(json) as { attempts: number; status: string }) : undefined;
    };
    /** SIGKILLs the replica running `taskId` (found from its status), returning its pid and the other pids. */
    const killRunner = async (taskId: string) => {
      const pid = await runnerOf(trio.mcp, taskId);
      const runner = trio.replicas.find((r) => r.process.pid === pid);
      if (!runner) throw new Error(`task ${taskId} runs on pid ${pid}, not one of this group's replicas`);
      await kill(runner);
      const alive = trio.replicas.filter((r) => r !== runner && r.process.exitCode === null && !r.process.signalCode);
      return { killed: pid, alive: alive.map((r) => r.process.pid) };
    };
    return { trio, recordOf, killRunner };
  }

  describe('three workers behind a round-robin proxy, the runner killed', () => {
    const { trio, recordOf, killRunner } = threeBehindProxy('kill');

    it('runs an idempotent task (its idempotency key) again on another replica, to completion', async () => {
      const taskId = await createTask(trio.mcp, 'sync_desk', { requestId: 'sync-42', steps: 30, stepMs: 150 });
      const { killed, alive } = await killRunner(taskId);
      expect(alive).toHaveLength(2);
      const done = await settle([trio.mcp], taskId, 30_000);
      expect(done).toMatchObject({
        status: 'completed',
        result: { structuredContent: { synced: 30, requestId: 'sync-42', task: taskId } },
      });
      expect(alive).toContain(done.result.structuredContent.by);
      expect(done.result.structuredContent.by).not.toBe(killed);
      expect((await recordOf(taskId))?.attempts).toBe(2);
    }, 60_000);

    it('fails a non-idempotent task with a clear message instead of running it again elsewhere', async () => {
      const taskId = await createTask(trio.mcp, 'provision_desk', { steps: 100, stepMs: 100 });
      const { alive } = await killRunner(taskId);
      expect(alive.length).toBeGreaterThan(0);
      const done = await settle([trio.mcp], taskId, 30_000);
      expect(done.status).toBe('failed');
      expect(done.error.message).toMatch(/stopped before it finished/);
      expect(done.error.message).toMatch(/not idempotent/);
      expect(done.result).toBeUndefined();
      // Final: it never turns into a result afterwards, whichever replica answers.
      for (const deadline = Date.now() + 1_000; Date.now() < deadline; await sleep(200)) {
        const task = (await getTask(trio.mcp, taskId)).result;
        expect(task.status).toBe('failed');
        expect(JSON.stringify(task)).not.toContain('provisioned');
      }
      expect((await recordOf(taskId))?.attempts).toBe(1);
    }, 60_000);
  });

  describe('three workers behind a round-robin proxy, Redis cut off and back mid-task', () => {
    let link: CuttableProxy;
    const trio = { replicas: [] as RunningServer[], mcp: '' };

    beforeAll(async () => {
      link = await startCuttableProxy('127.0.0.1', 6379);
      closers.push(() => link.close());
      trio.replicas = await startReplicas(
        3,
        envFor('cut', { REDIS_URL: `redis://127.0.0.1:${link.port}`, MCP_READY_CACHE_MS: '0' }),
      );
      servers.push(...trio.replicas);
      // Listening is not yet ready: each replica has its Redis connections (through the link) up first.
      for (const replica of trio.replicas)
        await until(
          `replica ${replica.url} to be ready`,
          30_000,
          () => fetch(new URL('/ready', replica.url)).then((r) => r.status),
          (status) => status === 200,
        );
      const proxy = await startRoundRobinProxy(trio.replicas.map((r) => new URL(r.url).origin));
      closers.push(() => proxy.close());
      trio.mcp = `${proxy.origin}/mcp`;
    }, 120_000);

    it('answers tasks/get with 503 -32006 on every replica during the cut, and the task completes once Redis is back', async () => {
      // On a loaded machine a creation can still be refused (503, the limits store's 1 s command timeout): createTask
      // retries it until the store answers, as a client is told to.
      const taskId = await createTask(trio.mcp, 'bulk_export', { steps: 40, stepMs: 100 });
      await until(
        `task ${taskId} to report progress`,
        15_000,
        () => getTask(trio.mcp, taskId),
        (x) => /^batch \d+ of 40 exported$/.test(x.result?.statusMessage ?? ''),
      );
      await link.cut();
      const cutAt = Date.now();
      try {
        // Three gets through the proxy: one on each replica.
        for (let i = 0; i < 3; i++) {
          const asked = Date.now();
          const during = await getTask(trio.mcp, taskId);
          expect({ status: during.status, code: during.error?.code }).toEqual({ status: 503, code: -32006 });
          expect(Date.now() - asked).toBeLessThan(5_000);
        }
        await sleep(Math.max(0, 2_000 - (Date.now() - cutAt)));
      } finally {
        await link.restore();
      }
      const done = await settle([trio.mcp], taskId, 30_000);
      expect(done).toMatchObject({
        status: 'completed',
        result: { structuredContent: { exported: 40, task: taskId } },
      });
      expect(trio.replicas.map((r) => r.process.pid)).toContain(done.result.structuredContent.by);
    }, 60_000);
  });

  /** A front replica and one worker: see frontAndWorker. */
  describe('a front replica and one worker', () => {
    const { pair, recordOf, runStarted, replaceWorker } = suite.frontAndWorker('solo');

    it('is ready on the front (it never runs tasks) before any task was queued through it', async () => {
      const res = await fetch(new URL('/ready', pair.front.url));
      const body = (await res.json()) as { checks: Record<string, unknown> };
      expect({ status: res.status, checks: body.checks }).toMatchObject({
        status: 200,
        checks: { task_store: 'ok', task_queue: 'ok' },
      });
    });

    it('fails a task whose workers keep dying (cut short three times) instead of leaving it open', async () => {
      const taskId = await createTask(pair.front.url, 'bulk_export', { steps: 600, stepMs: 100 });
      for (let attempt = 1; attempt <= 3; attempt++) {
        await until(
          `run ${attempt} of task ${taskId}`,
          20_000,
          () => recordOf(taskId),
          (r) => (r?.attempts ?? 0) >= attempt && r?.status === 'working',
        );
        await runStarted(taskId);
        await replaceWorker();
      }
      const done = await settle([pair.front.url], taskId, 30_000);
      expect(done.status).toBe('failed');
      expect(done.error.message).toBe(
        'The task was cut short more than once (its workers stopped); it was not run again',
      );
      expect((await recordOf(taskId))?.attempts).toBe(3);
    }, 120_000);
  });
});

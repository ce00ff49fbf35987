import { RunningServer } from '../support/server-process';
import { CuttableProxy, startCuttableProxy } from '../support/tcp-cut-proxy';
import { taskReplicaSuite } from '../support/task-replicas';
import { sleep } from '../support/wait';

/**
 * Tasks when things fail, on desk replicas on the machine's Redis: a worker killed mid-run (SIGKILL) hands its task
 * on, run again when the tool is idempotent, failed with a clear message when not (one worker at a time, so the
 * killed one provably ran the task); and a Redis cut mid-task is answered with 503s while the task still completes.
 */
describe('tasks when a worker dies or Redis is cut', () => {
  const suite = taskReplicaSuite();
  const { closers, start, getTask, createTask, until, settle } = suite;

  /** A front replica and one worker: see frontAndWorker. */
  describe('a front replica and one worker', () => {
    const { pair, recordOf, runStarted, replaceWorker } = suite.frontAndWorker('solo');

    it('hands an idempotent task of a SIGKILLed worker to another worker, which runs it again to completion', async () => {
      const taskId = await createTask(pair.front.url, 'bulk_export', { steps: 30, stepMs: 150 });
      const progress = await until(
        `task ${taskId} to report progress`,
        15_000,
        () => getTask(pair.front.url, taskId),
        (a) => /^batch \d+ of 30 exported$/.test(a.result?.statusMessage ?? ''),
      );
      expect(progress.result.status).toBe('working');
      const { killedPid, newPid } = await replaceWorker();
      const done = await settle([pair.front.url], taskId, 30_000);
      expect(done).toMatchObject({
        status: 'completed',
        result: { structuredContent: { exported: 30, by: newPid, task: taskId } },
      });
      expect(done.result.structuredContent.by).not.toBe(killedPid);
      expect((await recordOf(taskId))?.attempts).toBe(2);
      expect(`${pair.worker.stdout?.() ?? ''}${pair.worker.stderr()}`).toContain(
        `task ${taskId} (bulk_export): its run was cut short; running it again`,
      );
    }, 60_000);

    it('fails a non-idempotent task of a SIGKILLed worker with a clear message instead of running it again', async () => {
      const taskId = await createTask(pair.front.url, 'provision_desk', { steps: 100, stepMs: 100 });
      await runStarted(taskId);
      await replaceWorker();
      const done = await settle([pair.front.url], taskId, 30_000);
      expect(done.status).toBe('failed');
      expect(done.error.message).toMatch(/stopped before it finished/);
      expect(done.error.message).toMatch(/not idempotent/);
      expect(done.result).toBeUndefined();
      // Final: it never turns into a result afterwards, on either replica.
      for (const deadline = Date.now() + 1_000; Date.now() < deadline; await sleep(200))
        for (const replica of [pair.front, pair.worker]) {
          const task = (await getTask(replica.url, taskId)).result;
          expect(task.status).toBe('failed');
          expect(JSON.stringify(task)).not.toContain('provisioned');
        }
      expect((await recordOf(taskId))?.attempts).toBe(1);
    }, 60_000);
  });

  describe('Redis cut off and back mid-task', () => {
    let link: CuttableProxy;
    let a: RunningServer;
    let b: RunningServer;

    beforeAll(async () => {
      link = await startCuttableProxy('127.0.0.1', 6379);
      closers.push(() => link.close());
      const viaLink = { REDIS_URL: `redis://127.0.0.1:${link.port}`, MCP_READY_CACHE_MS: '0' };
      [a, b] = await Promise.all([start('cut', viaLink), start('cut', viaLink)]);
    }, 60_000);

    it('answers tasks/get with 503 -32006 during the cut, and the task completes once Redis is back', async () => {
      const taskId = await createTask(a.url, 'bulk_export', { steps: 40, stepMs: 100 });
      await until(
        `task ${taskId} to report progress`,
        15_000,
        () => getTask(b.url, taskId),
        (x) => /^batch \d+ of 40 exported$/.test(x.result?.statusMessage ?? ''),
      );
      await link.cut();
      const cutAt = Date.now();
      try {
        for (const replica of [b, a]) {
          const asked = Date.now();
          const during = await getTask(replica.url, taskId);
          expect({ status: during.status, code: during.error?.code }).toEqual({ status: 503, code: -32006 });
          expect(Date.now() - asked).toBeLessThan(5_000);
        }
        await sleep(Math.max(0, 2_000 - (Date.now() - cutAt)));
      } finally {
        await link.restore();
      }
      const done = await settle([a.url, b.url], taskId, 30_000);
      expect(done).toMatchObject({
        status: 'completed',
        result: { structuredContent: { exported: 40, task: taskId } },
      });
      expect([a.process.pid, b.process.pid]).toContain(done.result.structuredContent.by);
    }, 60_000);
  });
});

import { RunningServer } from '../support/server-process';
import { startReplicas } from '../support/replicas';
import { RoundRobinProxy, startRoundRobinProxy } from '../support/round-robin-proxy';
import { FINAL, NEVER_ISSUED, taskReplicaSuite } from '../support/task-replicas';
import { sleep, waitFor } from '../support/wait';

/**
 * Long-running tools as tasks across desk replicas on the machine's Redis (task store and BullMQ queue): a task is
 * created, polled, answered and cancelled through whichever replica a request lands on, and its status is heard on a
 * listen stream held by another replica than the one running it. Where a case must prove a request went to a replica
 * that is not running the task, the runner is read from the task's own status (the desk's jobs report their worker's
 * pid). The faults (a SIGKILLed worker, Redis cut mid-task) are in task-worker-faults.e2e-spec.ts.
 */
describe('tasks across replicas on Redis', () => {
  const suite = taskReplicaSuite();
  const { tokens, servers, closers, envFor, rpc, getTask, createTask, until, settle, listenTasks, runnerOf } = suite;

  /**
   * Three workers behind a round-robin proxy without affinity: consecutive requests land on consecutive replicas,
   * and any of the three may run a task.
   */
  describe('three workers behind a round-robin proxy', () => {
    let replicas: RunningServer[];
    let proxy: RoundRobinProxy;
    let mcp: string;

    beforeAll(async () => {
      replicas = await startReplicas(3, envFor('rr'));
      servers.push(...replicas);
      proxy = await startRoundRobinProxy(replicas.map((r) => new URL(r.url).origin));
      closers.push(() => proxy.close());
      mcp = `${proxy.origin}/mcp`;
    }, 60_000);

    /** The upstreams that answered the proxy's requests of `method` logged from index `from` on. */
    const answeredBy = (from: number, method: string) =>
      new Set(
        proxy.log
          .slice(from)
          .filter((e) => e.rpc === method)
          .map((e) => e.upstream),
      );

    it('polls a task created through the proxy on every replica until it completes, run by one of them', async () => {
      const from = proxy.log.length;
      const taskId = await createTask(mcp, 'bulk_export', { steps: 10, stepMs: 100 });
      const seen: string[] = [];
      let done: any;
      // Polls until it is final, and at least three times: consecutive gets go to the three replicas in turn.
      for (const deadline = Date.now() + 30_000; !done || seen.length < 3;) {
        if (Date.now() > deadline) throw new Error(`task ${taskId}: not final within 30 s; seen ${seen.join(', ')}`);
        const answer = await getTask(mcp, taskId);
        expect(answer.result).toMatchObject({ taskId });
        seen.push(answer.result.status);
        if (FINAL.includes(answer.result.status)) done = answer.result;
        else await sleep(100);
      }
      expect(answeredBy(from, 'tasks/get')).toEqual(new Set([0, 1, 2]));
      // Every replica tells the same story: working until it is completed, never back.
      expect(seen.join(' ')).toMatch(/^(working )*(completed ?)+$/);
      expect(done).toMatchObject({
        status: 'completed',
        result: { structuredContent: { exported: 10, task: taskId } },
      });
      expect(replicas.map((r) => r.process.pid)).toContain(done.result.structuredContent.by);
    }, 45_000);

    it('shows input_required on every replica, and tasks/update through the proxy resumes the run to completed', async () => {
      const taskId = await createTask(mcp, 'archive_tickets', { before: '2026-03-01' });
      await until(
        `task ${taskId} to ask its question`,
        15_000,
        () => getTask(mcp, taskId),
        (a) => a.result?.status === 'input_required',
      );
      const from = proxy.log.length;
      const views = [];
      for (let i = 0; i < 3; i++) views.push((await getTask(mcp, taskId)).result);
      expect(answeredBy(from, 'tasks/get')).toEqual(new Set([0, 1, 2]));
      for (const view of views)
        expect(view).toMatchObject({
          status: 'input_required',
          inputRequests: { confirm: { method: 'elicitation/create', params: { mode: 'form' } } },
        });
      const ack = await rpc(mcp, 'tasks/update', {
        taskId,
        inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
      });
      expect(ack.result).toMatchObject({ resultType: 'complete' });
      const done = await settle([mcp], taskId, 20_000);
      expect(done.status).toBe('completed');
      expect(done.result.content[0].text).toBe('Archived tickets closed before 2026-03-01');
    }, 45_000);

    it("tells another subject on every replica that someone's task does not exist", async () => {
      const taskId = await createTask(mcp, 'bulk_export', { steps: 100, stepMs: 100 });
      try {
        for (const replica of replicas) {
          const unknown = await getTask(replica.url, NEVER_ISSUED, tokens.mallory);
          for (const [method, params] of [
            ['tasks/get', { taskId }],
            ['tasks/update', { taskId, inputResponses: { confirm: { action: 'accept' } } }],
            ['tasks/cancel', { taskId }],
          ] as const) {
            const answer = await rpc(replica.url, method, params, tokens.mallory);
            expect({ replica: replica.url, method, error: answer.error }).toEqual({
              replica: replica.url,
              method,
              error: { ...unknown.error, data: answer.error?.data },
            });
            expect(answer.error).toMatchObject({ code: -32602, message: 'Failed to retrieve task: Task not found' });
          }
        }
        // Untouched by all that: still the owner's, still running.
        expect((await getTask(mcp, taskId)).result.status).toBe('working');
      } finally {
        await rpc(mcp, 'tasks/cancel', { taskId });
      }
    }, 45_000);
    /** BullMQ's running jobs of this group (their ids are the task ids). */
    const activeJobs = () => suite.redis.lrange(`${suite.prefix}rr:{tasks}:tasks:active`, 0, -1);

    it('cancels through a replica that is not running the task: cancelled at once, stays so, and the run stops', async () => {
      const taskId = await createTask(mcp, 'provision_desk', { steps: 300, stepMs: 100 });
      const runner = await runnerOf(mcp, taskId);
      const others = replicas.filter((r) => r.process.pid !== runner);
      expect(others).toHaveLength(2);
      const cancelledAt = Date.now();
      expect((await rpc(others[0].url, 'tasks/cancel', { taskId })).result).toMatchObject({ resultType: 'complete' });
      for (const replica of replicas)
        expect((await getTask(replica.url, taskId)).result).toMatchObject({ status: 'cancelled' });
      expect(Date.now() - cancelledAt).toBeLessThan(2_000);
      // The runner heard of it over the bus and stopped the run: its job ends long before the tool's 30 s.
      await until(`the runner to stop the run of ${taskId}`, 5_000, activeJobs, (ids) => !ids.includes(taskId));
      // And it stays cancelled wherever it is read; nothing ever reports it provisioned.
      for (const deadline = Date.now() + 1_000; Date.now() < deadline; await sleep(200))
        for (const replica of replicas) {
          const task = (await getTask(replica.url, taskId)).result;
          expect(task.status).toBe('cancelled');
          expect(task.result).toBeUndefined();
        }
    }, 45_000);

    it('sends notifications/tasks on a listen stream held by a replica that is not running the task', async () => {
      const taskId = await createTask(mcp, 'sync_desk', { requestId: 'listen-1', steps: 15, stepMs: 150 });
      const runner = await runnerOf(mcp, taskId);
      const holder = replicas.find((r) => r.process.pid !== runner)!;
      const follower = await listenTasks(holder.url, tokens.alice, [taskId], 'follow-1');
      const stranger = await listenTasks(holder.url, tokens.mallory, [taskId], 'follow-2');
      try {
        expect(follower.frames[0]).toMatchObject({
          method: 'notifications/subscriptions/acknowledged',
          params: {
            notifications: { taskIds: [taskId] },
            _meta: { 'io.modelcontextprotocol/subscriptionId': 'follow-1' },
          },
        });
        // Someone else's task is left out of the acknowledgement.
        expect(stranger.frames[0]).toMatchObject({ method: 'notifications/subscriptions/acknowledged' });
        expect(stranger.frames[0].params.notifications.taskIds ?? []).toEqual([]);
        await waitFor(
          () => follower.frames.some((f) => f.method === 'notifications/tasks' && f.params.status === 'completed'),
          15_000,
          `notifications/tasks "completed" for ${taskId} on the stream held by pid ${holder.process.pid}`,
        );
        const notices = follower.frames.filter((f) => f.method === 'notifications/tasks');
        for (const notice of notices)
          expect(notice.params).toMatchObject({
            taskId,
            _meta: { 'io.modelcontextprotocol/subscriptionId': 'follow-1' },
          });
        // The progress heard was made by the runner, another process than the stream's.
        const working = notices.filter((n) => n.params.status === 'working');
        expect(working.length).toBeGreaterThan(0);
        for (const notice of working) expect(notice.params.statusMessage).toMatch(new RegExp(` on worker ${runner}$`));
        expect(notices.at(-1)!.params.result.structuredContent).toMatchObject({ synced: 15, by: runner, task: taskId });
        expect(stranger.frames).toHaveLength(1);
      } finally {
        await follower.close();
        await stranger.close();
      }
    }, 45_000);
  });
});

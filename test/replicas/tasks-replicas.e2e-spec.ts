import { once } from 'node:events';
import { DESK_MAIN, RunningServer, startHttpServer } from '../support/server-process';
import { TestIssuer } from '../support/test-issuer';
import { MODERN_META, followSse, messagesOf, modernPost } from '../support/modern-post';
import { startReplicas, stopReplicas, suiteRedis } from '../support/replicas';
import { RoundRobinProxy, startRoundRobinProxy } from '../support/round-robin-proxy';
import { CuttableProxy, startCuttableProxy } from '../support/tcp-cut-proxy';
import { sleep, waitFor } from '../support/wait';

const EXTENSION = 'io.modelcontextprotocol/tasks';
/** A 2026-07-28 request that declares the tasks extension and elicitation. */
const WITH_TASKS = {
  ...MODERN_META,
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, extensions: { [EXTENSION]: {} } },
};
const FINAL = ['completed', 'failed', 'cancelled'];
/** An id of the right shape that was never issued. */
const NEVER_ISSUED = 'AAAAAAAAAAAAAAAAAAAAAA';

/** One 2026-07-28 request's HTTP status and JSON-RPC answer. */
interface Answer {
  status: number;
  result?: any;
  error?: any;
}

/**
 * Long-running tools as tasks across desk replicas on the machine's Redis (task store and BullMQ queue): a task is
 * created, polled, answered and cancelled through whichever replica a request lands on; a worker killed mid-run hands
 * its task on (run again when the tool is idempotent, failed with a clear message when not); a Redis cut mid-task is
 * answered with 503s and the task still completes. Worker topologies are chosen per group so that the runner of a
 * task is known where a case must prove it was (or was not) the replica a request went to.
 */
describe('tasks across replicas on Redis', () => {
  const { prefix, redis, cleanup } = suiteRedis();
  let issuer: TestIssuer;
  let alice: string;
  let mallory: string;
  /** Every process, proxy and link started here, ended in afterAll whatever happened. */
  const servers: RunningServer[] = [];
  const closers: (() => Promise<void>)[] = [];

  /** The replicas' environment, with a lock short enough for a killed worker's task to be handed on in seconds. */
  const envFor = (group: string, extra: Record<string, string> = {}) => ({
    ...issuer.env(),
    MCP_STORE: 'redis',
    MCP_REDIS_PREFIX: `${prefix}${group}:`,
    DESK_TASK_TOOLS: 'on',
    MCP_TASK_LOCK_MS: '1500',
    MCP_TASK_POLL_INTERVAL_MS: '200',
    ...extra,
  });
  const start = async (group: string, extra: Record<string, string> = {}): Promise<RunningServer> => {
    const server = await startHttpServer(DESK_MAIN, envFor(group, extra));
    servers.push(server);
    return server;
  };

  beforeAll(async () => {
    issuer = await TestIssuer.start();
    alice = await issuer.mint({ sub: 'alice' });
    mallory = await issuer.mint({ sub: 'mallory' });
  });
  afterAll(async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await stopReplicas(servers);
    await issuer?.close();
    await cleanup();
  });

  async function rpc(url: string, method: string, params: Record<string, unknown>, token = alice): Promise<Answer> {
    const res = await modernPost(url, method, params, { token, meta: WITH_TASKS });
    const [message] = await messagesOf(res);
    return { status: res.status, ...message };
  }
  const call = (url: string, name: string, args: Record<string, unknown>) =>
    rpc(url, 'tools/call', { name, arguments: args });
  const getTask = (url: string, taskId: string, token = alice) => rpc(url, 'tasks/get', { taskId }, token);

  /** Creates a task and returns its id (fails with the answer when the call was not answered with a task). */
  async function createTask(url: string, name: string, args: Record<string, unknown>): Promise<string> {
    const created = await call(url, name, args);
    if (created.result?.resultType !== 'task' || typeof created.result.taskId !== 'string')
      throw new Error(`${name} was not answered with a task: ${JSON.stringify(created)}`);
    return created.result.taskId as string;
  }

  /** Probes every `everyMs` until `ok` holds; fails naming `what` and the last value seen. */
  async function until<T>(
    what: string,
    timeoutMs: number,
    probe: () => Promise<T>,
    ok: (value: T) => boolean,
    everyMs = 100,
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (ok(value)) return value;
      if (Date.now() > deadline)
        throw new Error(`${what}: not within ${timeoutMs} ms; last seen ${JSON.stringify(value)}`);
      await sleep(everyMs);
    }
  }

  /** Polls `tasks/get` until the task is final; `urls` take turns. */
  const settle = (urls: string[], taskId: string, timeoutMs: number) => {
    let n = 0;
    return until(
      `task ${taskId} to finish`,
      timeoutMs,
      () => getTask(urls[n++ % urls.length], taskId),
      (a) => FINAL.includes(a.result?.status),
      150,
    ).then((a) => a.result);
  };

  /** SIGKILL, resolved once the process is gone. */
  async function kill(server: RunningServer): Promise<void> {
    if (server.process.exitCode !== null || server.process.signalCode !== null) return;
    const exited = once(server.process, 'exit');
    server.process.kill('SIGKILL');
    await exited;
  }

  /** A 2026-07-28 `subscriptions/listen` stream declaring the tasks extension; resolves after its acknowledgement. */
  async function listenTasks(url: string, token: string, taskIds: string[], id: string) {
    const abort = new AbortController();
    const res = await fetch(url, {
      method: 'POST',
      signal: abort.signal,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'subscriptions/listen',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'subscriptions/listen',
        params: { _meta: WITH_TASKS, notifications: { taskIds } },
      }),
    });
    if (!(res.headers.get('content-type') ?? '').includes('text/event-stream'))
      throw new Error(`listen was refused (${res.status}): ${await res.text()}`);
    const { frames, done } = followSse(res);
    await waitFor(() => frames.length >= 1, 5_000, `the acknowledgement of listen ${id}`);
    closers.push(async () => abort.abort());
    return {
      frames,
      close: async () => {
        abort.abort();
        await done;
      },
    };
  }

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
          const unknown = await getTask(replica.url, NEVER_ISSUED, mallory);
          for (const [method, params] of [
            ['tasks/get', { taskId }],
            ['tasks/update', { taskId, inputResponses: { confirm: { action: 'accept' } } }],
            ['tasks/cancel', { taskId }],
          ] as const) {
            const answer = await rpc(replica.url, method, params, mallory);
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
  });

  /**
   * A front replica that never runs tasks (`MCP_TASK_WORKER=false`) and exactly one worker at a time, so the runner
   * of every task is known: requests sent to the front provably reach a replica other than the runner, and the
   * worker killed mid-run is provably the one running the task.
   */
  describe('a front replica and one worker', () => {
    const group = 'solo';
    let front: RunningServer;
    let worker: RunningServer;
    const recordOf = async (taskId: string) => {
      const json = await redis.hget(`${prefix}${group}:{tasks}:task:${taskId}`, 'j');
      return json ? (JSON.parse(json) as { attempts: number; status: string }) : undefined;
    };
    const activeJobs = () => redis.lrange(`${prefix}${group}:{tasks}:tasks:active`, 0, -1);
    /** Resolves once the worker has started the task's run (the run counted in the record, its job active). */
    const runStarted = async (taskId: string) => {
      await until(
        `task ${taskId} to be taken by the worker`,
        15_000,
        async () => ({ record: await recordOf(taskId), active: await activeJobs() }),
        (s) => (s.record?.attempts ?? 0) >= 1 && s.active.includes(taskId),
      );
    };
    /** Kills the worker and starts a fresh one: the new worker takes the killed one's task once its lock lapses. */
    const replaceWorker = async () => {
      const killed = worker;
      await kill(killed);
      worker = await start(group);
      return { killedPid: killed.process.pid, newPid: worker.process.pid };
    };

    beforeAll(async () => {
      [front, worker] = await Promise.all([start(group, { MCP_TASK_WORKER: 'false' }), start(group)]);
    }, 60_000);

    it('cancels through a replica that is not running the task: cancelled at once, stays so, and the run stops', async () => {
      const taskId = await createTask(front.url, 'provision_desk', { steps: 300, stepMs: 100 });
      await runStarted(taskId);
      // Let the run register for change notices (it does so right after announcing its start).
      await sleep(300);
      const cancelledAt = Date.now();
      expect((await rpc(front.url, 'tasks/cancel', { taskId })).result).toMatchObject({ resultType: 'complete' });
      for (const replica of [front, worker]) {
        const task = (await getTask(replica.url, taskId)).result;
        expect(task).toMatchObject({ status: 'cancelled' });
      }
      expect(Date.now() - cancelledAt).toBeLessThan(2_000);
      // The worker heard of it over the bus and stopped the run: its job ends long before the tool's 30 s.
      await until(`the worker to stop the run of ${taskId}`, 5_000, activeJobs, (ids) => !ids.includes(taskId));
      // And it stays cancelled wherever it is read; nothing ever reports it provisioned.
      for (const deadline = Date.now() + 1_000; Date.now() < deadline; await sleep(200))
        for (const replica of [front, worker]) {
          const task = (await getTask(replica.url, taskId)).result;
          expect(task.status).toBe('cancelled');
          expect(task.result).toBeUndefined();
        }
      expect((await recordOf(taskId))?.status).toBe('cancelled');
    }, 45_000);

    it('sends notifications/tasks on a listen stream held by one replica for changes made by another', async () => {
      const taskId = await createTask(front.url, 'archive_tickets', { before: '2026-04-01' });
      await until(
        `task ${taskId} to ask its question`,
        15_000,
        () => getTask(front.url, taskId),
        (a) => a.result?.status === 'input_required',
      );
      const follower = await listenTasks(front.url, alice, [taskId], 'follow-1');
      const stranger = await listenTasks(front.url, mallory, [taskId], 'follow-2');
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
        // Answered on the worker, which then finishes the run: every change is made there, none on the front.
        const ack = await rpc(worker.url, 'tasks/update', {
          taskId,
          inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
        });
        expect(ack.result).toMatchObject({ resultType: 'complete' });
        await waitFor(
          () => follower.frames.some((f) => f.method === 'notifications/tasks' && f.params.status === 'completed'),
          10_000,
          `notifications/tasks "completed" for ${taskId} on the front's stream`,
        );
        const notices = follower.frames.filter((f) => f.method === 'notifications/tasks');
        for (const notice of notices)
          expect(notice.params).toMatchObject({
            taskId,
            _meta: { 'io.modelcontextprotocol/subscriptionId': 'follow-1' },
          });
        expect(notices.at(-1)!.params.result.content[0].text).toBe('Archived tickets closed before 2026-04-01');
        expect(stranger.frames).toHaveLength(1);
      } finally {
        await follower.close();
        await stranger.close();
      }
    }, 45_000);

    it('hands an idempotent task of a SIGKILLed worker to another worker, which runs it again to completion', async () => {
      const taskId = await createTask(front.url, 'bulk_export', { steps: 30, stepMs: 150 });
      const progress = await until(
        `task ${taskId} to report progress`,
        15_000,
        () => getTask(front.url, taskId),
        (a) => /^batch \d+ of 30 exported$/.test(a.result?.statusMessage ?? ''),
      );
      expect(progress.result.status).toBe('working');
      const { killedPid, newPid } = await replaceWorker();
      const done = await settle([front.url], taskId, 30_000);
      expect(done).toMatchObject({
        status: 'completed',
        result: { structuredContent: { exported: 30, by: newPid, task: taskId } },
      });
      expect(done.result.structuredContent.by).not.toBe(killedPid);
      expect((await recordOf(taskId))?.attempts).toBe(2);
      expect(`${worker.stdout?.() ?? ''}${worker.stderr()}`).toContain(
        `task ${taskId} (bulk_export): its run was cut short; running it again`,
      );
    }, 60_000);

    it('fails a non-idempotent task of a SIGKILLed worker with a clear message instead of running it again', async () => {
      const taskId = await createTask(front.url, 'provision_desk', { steps: 100, stepMs: 100 });
      await runStarted(taskId);
      await replaceWorker();
      const done = await settle([front.url], taskId, 30_000);
      expect(done.status).toBe('failed');
      expect(done.error.message).toMatch(/stopped before it finished/);
      expect(done.error.message).toMatch(/not idempotent/);
      expect(done.result).toBeUndefined();
      // Final: it never turns into a result afterwards, on either replica.
      for (const deadline = Date.now() + 1_000; Date.now() < deadline; await sleep(200))
        for (const replica of [front, worker]) {
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

import { once } from 'node:events';
import { DESK_MAIN, RunningServer, startHttpServer } from './server-process';
import { TestIssuer } from './test-issuer';
import { MODERN_META, messagesOf, modernPost } from './modern-post';
import { listen } from './listen-stream';
import { suiteRedis, stopReplicas } from './replicas';
import { sleep } from './wait';

/** The tasks extension's id, as declared in a request's client capabilities. */
export const EXTENSION = 'io.modelcontextprotocol/tasks';
/** A 2026-07-28 request that declares the tasks extension and elicitation. */
export const WITH_TASKS = {
  ...MODERN_META,
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, extensions: { [EXTENSION]: {} } },
};
/** The statuses a task never leaves. */
export const FINAL = ['completed', 'failed', 'cancelled'];
/** An id of the right shape that was never issued. */
export const NEVER_ISSUED = 'AAAAAAAAAAAAAAAAAAAAAA';

/**
 * The limits store could not be reached (503, `-32006`, `limit_store_unavailable`): the call was refused before it
 * did anything, so a retry is safe. (Not `task_store_unavailable`: a creation whose store write timed out may have
 * stored the task all the same.)
 */
const storeUnavailable = (answer: Answer) =>
  answer.status === 503 && answer.error?.code === -32006 && answer.error?.data?.reason === 'limit_store_unavailable';

/** One 2026-07-28 request's HTTP status and JSON-RPC answer. */
export interface Answer {
  status: number;
  result?: any;
  error?: any;
}

/**
 * What the multi-replica task suites share, registered on the calling describe (its beforeAll/afterAll): a Redis
 * prefix of their own, an issuer with the tokens of `alice` (the owner) and `mallory` (a stranger), desk replicas
 * with the task tools and a lock short enough for a killed worker's task to be handed on in seconds, and the
 * 2026-07-28 task requests. Every process, proxy and stream started through it ends in afterAll.
 */
export function taskReplicaSuite() {
  const { prefix, redis, cleanup } = suiteRedis();
  let issuer: TestIssuer;
  const tokens = { alice: '', mallory: '' };
  const servers: RunningServer[] = [];
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    issuer = await TestIssuer.start();
    tokens.alice = await issuer.mint({ sub: 'alice' });
    tokens.mallory = await issuer.mint({ sub: 'mallory' });
  });
  afterAll(async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await stopReplicas(servers);
    await issuer?.close();
    await cleanup();
  });

  /** The replicas' environment of `group` (its own key prefix under the suite's). */
  const envFor = (group: string, extra: Record<string, string> = {}) => ({
    ...issuer.env(),
    MCP_STORE: 'redis',
    MCP_REDIS_PREFIX: `${prefix}${group}:`,
    DESK_TASK_TOOLS: 'on',
    MCP_TASK_LOCK_MS: '1500',
    MCP_TASK_POLL_INTERVAL_MS: '200',
    ...extra,
  });
  /** Starts one desk replica of `group` (ended in afterAll). */
  const start = async (group: string, extra: Record<string, string> = {}): Promise<RunningServer> => {
    const server = await startHttpServer(DESK_MAIN, envFor(group, extra));
    servers.push(server);
    return server;
  };

  /** One 2026-07-28 request declaring the tasks extension, as alice unless `token` says otherwise. */
  async function rpc(
    url: string,
    method: string,
    params: Record<string, unknown>,
    token = tokens.alice,
  ): Promise<Answer> {
    const res = await modernPost(url, method, params, { token, meta: WITH_TASKS });
    const [message] = await messagesOf(res);
    return { status: res.status, ...message };
  }
  /** `tools/call` of `name` as alice. */
  const call = (url: string, name: string, args: Record<string, unknown>) =>
    rpc(url, 'tools/call', { name, arguments: args });
  /** `tasks/get` of `taskId`, as alice unless `token` says otherwise. */
  const getTask = (url: string, taskId: string, token = tokens.alice) => rpc(url, 'tasks/get', { taskId }, token);

  /**
   * Creates a task and returns its id (fails with the answer when the call was not answered with a task). A 503
   * `limit_store_unavailable` (refused before anything was made) is what a client is told to retry, so it is retried
   * until the limits store answers again (within 30 s): a replica whose Redis commands time out on a loaded machine
   * (the 1 s command timeout), or that is still reconnecting after a cut, says so, and the suites' point is what
   * follows the creation.
   */
  async function createTask(url: string, name: string, args: Record<string, unknown>): Promise<string> {
    const created = await until(
      `${name} to be answered by a replica whose limits store answers`,
      30_000,
      () => call(url, name, args),
      (answer) => !storeUnavailable(answer),
      200,
    );
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

  /**
   * The pid of the process running `taskId`, read from its status ("… on worker <pid>", as `provision_desk` and
   * `sync_desk` report it) through `url`, whichever replica answers.
   */
  async function runnerOf(url: string, taskId: string): Promise<number> {
    const seen = await until(
      `task ${taskId} to report its worker`,
      15_000,
      () => getTask(url, taskId),
      (a) => a.result?.status === 'working' && / on worker \d+$/.test(a.result.statusMessage ?? ''),
    );
    return Number(/ on worker (\d+)$/.exec(seen.result.statusMessage)![1]);
  }

  /** SIGKILL, resolved once the process is gone. */
  async function kill(server: RunningServer): Promise<void> {
    if (server.process.exitCode !== null || server.process.signalCode !== null) return;
    const exited = once(server.process, 'exit');
    server.process.kill('SIGKILL');
    await exited;
  }

  /** A listen stream declaring the tasks extension, following `taskIds`; ended in afterAll at the latest. */
  async function listenTasks(url: string, token: string, taskIds: string[], id: string) {
    const stream = await listen(url, token, { taskIds }, id, WITH_TASKS);
    if (stream.body) throw new Error(`listen was refused (${stream.status}): ${JSON.stringify(stream.body)}`);
    closers.push(stream.close);
    return stream;
  }

  /**
   * A front replica that never runs tasks (`MCP_TASK_WORKER=false`) and exactly one worker at a time, of `group`,
   * started in the calling describe's beforeAll: the runner of every task is known, so requests sent to the front
   * provably reach a replica other than the runner, and a worker killed mid-run is provably the one running the task.
   */
  function frontAndWorker(group: string) {
    const pair = { front: undefined as unknown as RunningServer, worker: undefined as unknown as RunningServer };
    beforeAll(async () => {
      [pair.front, pair.worker] = await Promise.all([start(group, { MCP_TASK_WORKER: 'false' }), start(group)]);
    }, 120_000);
    const recordOf = async (taskId: string) => {
      const json = await redis.hget(`${prefix}${group}:{tasks}:task:${taskId}`, 'j');
      return json ? (JSON.parse(json) as { attempts: number; status: string }) : undefined;
    };
    /** BullMQ's running jobs (their ids are the task ids). */
    const activeJobs = () => redis.lrange(`${prefix}${group}:{tasks}:tasks:active`, 0, -1);
    /** Resolves once the worker has started the task's run (the run counted in the record, its job active). */
    const runStarted = (taskId: string) =>
      until(
        `task ${taskId} to be taken by the worker`,
        15_000,
        async () => ({ record: await recordOf(taskId), active: await activeJobs() }),
        (s) => (s.record?.attempts ?? 0) >= 1 && s.active.includes(taskId),
      );
    /** Kills the worker and starts a fresh one: the new worker takes the killed one's task once its lock lapses. */
    const replaceWorker = async () => {
      const killed = pair.worker;
      await kill(killed);
      pair.worker = await start(group);
      return { killedPid: killed.process.pid, newPid: pair.worker.process.pid };
    };
    return { pair, recordOf, activeJobs, runStarted, replaceWorker };
  }

  return {
    frontAndWorker,
    prefix,
    redis,
    envFor,
    tokens,
    servers,
    closers,
    start,
    rpc,
    call,
    getTask,
    createTask,
    until,
    settle,
    kill,
    listenTasks,
    runnerOf,
  };
}

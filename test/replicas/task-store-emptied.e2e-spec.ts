import { OwnRedis, startOwnRedis } from '../support/own-redis';
import { stopReplicas } from '../support/replicas';
import { RunningServer } from '../support/server-process';
import { taskReplicaSuite } from '../support/task-replicas';

/**
 * A Redis restarted empty under a running task (a restart without persistence, a flush, a failover without its
 * data): the task's record is gone, so every client gets task not found, and the run of the mutating, non-idempotent
 * `provision_desk` (which had begun provisioning) is audited as `lost`: not `handed_on`, since no worker will ever
 * take it over; tasks created afterwards run as usual. On a Redis of the test's own (restarted on its port), one desk
 * replica.
 */
describe('tasks when Redis restarts empty', () => {
  const suite = taskReplicaSuite();
  let redis: OwnRedis;
  let replica: RunningServer;

  beforeAll(async () => {
    redis = await startOwnRedis();
    replica = await suite.start('emptied', { REDIS_URL: redis.url, MCP_READY_CACHE_MS: '0' });
  }, 60_000);
  afterAll(async () => {
    await stopReplicas([replica].filter(Boolean));
    await redis?.stop();
  });

  /** The `task_run` audit events of `taskId` the replica wrote (the audit channel goes to its stderr). */
  const auditsOf = (taskId: string) =>
    replica
      .stderr()
      .split('\n')
      .filter((line) => line.includes('"channel":"audit"') && line.includes(taskId))
      .map((line) => JSON.parse(line) as { event: string; tool: string; outcome: string });

  it('answers task_not_found for a task created before, and audits its begun run as lost', async () => {
    const taskId = await suite.createTask(replica.url, 'provision_desk', { steps: 300, stepMs: 100 });
    await suite.runnerOf(replica.url, taskId); // provisioning is under way: it reports its steps
    await redis.restartEmpty();
    const gone = await suite.until(
      `tasks/get of ${taskId} to be answered once Redis is back`,
      30_000,
      () => suite.getTask(replica.url, taskId),
      (a) => a.status !== 503,
    );
    expect(gone.error).toMatchObject({ code: -32602, data: { reason: 'task_not_found' } });
    const runs = await suite.until(
      `the run of ${taskId} to be audited`,
      30_000,
      async () => auditsOf(taskId).filter((e) => e.event === 'task_run'),
      (events) => events.length > 0,
    );
    expect(runs).toEqual([expect.objectContaining({ tool: 'provision_desk', outcome: 'lost' })]);
    // The application log (stdout, written asynchronously: it may come after the audit line) says what happened.
    const warning = `task ${taskId} (provision_desk): its record is gone from the task store`;
    const logged = async () => replica.stdout!().includes(warning);
    await suite.until(`the warning about ${taskId} in the log`, 10_000, logged, (seen) => seen);
    // The deployment goes on: a task created now runs and completes on the emptied Redis.
    const next = await suite.createTask(replica.url, 'bulk_export', { steps: 3, stepMs: 10 });
    expect(await suite.settle([replica.url], next, 30_000)).toMatchObject({ status: 'completed' });
  }, 90_000);
});

import { RunningServer } from '../support/server-process';
import { FINAL, taskReplicaSuite } from '../support/task-replicas';
import { sleep } from '../support/wait';

/**
 * The cap on one caller's running tasks holds for the deployment (`MCP_MAX_RUNNING_TASKS_PER_SUBJECT`, places in
 * Redis): two worker replicas with room for many runs each, and a caller allowed one run at a time. Its second task
 * waits in the queue (never started, no progress) while the first runs on either worker, then runs; another caller's
 * task runs meanwhile.
 */
describe('tasks: one caller’s runs at once, across worker replicas', () => {
  const suite = taskReplicaSuite();
  const { tokens, start, rpc, getTask, createTask, until, settle } = suite;
  let workers: RunningServer[];

  beforeAll(async () => {
    const env = { MCP_MAX_RUNNING_TASKS_PER_SUBJECT: '1', MCP_TASK_CONCURRENCY: '4' };
    workers = await Promise.all([start('cap', env), start('cap', env)]);
  }, 60_000);

  it('runs a caller’s second task only once its first is done, on whichever replica, while others run', async () => {
    const [a, b] = workers.map((w) => w.url);
    const first = await createTask(a, 'bulk_export', { steps: 12, stepMs: 100 });
    const second = await createTask(b, 'bulk_export', { steps: 12, stepMs: 100 });
    const args = { name: 'bulk_export', arguments: { steps: 12, stepMs: 100 } };
    const bystander = await rpc(b, 'tools/call', args, tokens.mallory);
    const mallorys: string = bystander.result.taskId;
    expect(typeof mallorys).toBe('string');

    // Sample both of alice's tasks until both are final: never both mid-run (a progress message while working).
    const running = (task: { status: string; statusMessage?: string }) =>
      task.status === 'working' && /^batch \d+ of 12 exported$/.test(task.statusMessage ?? '');
    let both = 0;
    let order: string[] = [];
    for (let i = 0; i < 200; i++) {
      const [one, two] = await Promise.all([getTask(a, first), getTask(b, second)]);
      if (running(one.result) && running(two.result)) both++;
      for (const [id, t] of [
        [first, one.result],
        [second, two.result],
      ] as const)
        if (running(t) && !order.includes(id)) order = [...order, id];
      if (FINAL.includes(one.result.status) && FINAL.includes(two.result.status)) break;
      await sleep(100);
    }
    expect(both).toBe(0);
    expect(order).toHaveLength(2);
    const done = await Promise.all([settle([a], first, 10_000), settle([b], second, 10_000)]);
    expect(done.map((t) => t.status)).toEqual(['completed', 'completed']);
    // The one that ran later finished after the other.
    const [early, late] = order[0] === first ? done : [done[1], done[0]];
    expect(Date.parse(late.lastUpdatedAt)).toBeGreaterThan(Date.parse(early.lastUpdatedAt));
    // Mallory's task was never held up by alice's cap.
    const theirs = await until(
      'mallory’s task to finish',
      10_000,
      () => getTask(a, mallorys, tokens.mallory),
      (t) => FINAL.includes(t.result?.status),
    );
    expect(theirs.result.status).toBe('completed');
  });
});

import { resolveMcpOptions } from '../mcp-options.resolver';
import { InMemoryTaskStore } from '../stores/in-memory-task.store';
import { InMemoryMessageBus } from '../stores/in-memory-message.bus';
import { InMemoryKeyStore } from '../stores/in-memory-key.store';
import { InMemoryLimitStore } from '../stores/in-memory-limit.store';
import { McpTaskHead, McpTaskPatch, McpTaskRecord } from '../stores/task.store';
import { RequestStateCodec } from '../pipeline/request-state.codec';
import { enableCallScope, noteDownstream } from '../pipeline/call-scope';
import { McpRegistry } from '../registry/mcp.registry';
import { ToolEntry } from '../registry/registry-entries';
import { McpCallContext } from '../context/call-context.interface';
import { McpMetrics } from '../observability/mcp-metrics.service';
import { McpAuditEvent } from '../observability/mcp-audit.sink';
import { McpTaskEvents } from './task-events';
import { McpTaskObserver } from './task-observer';
import { McpTaskQueue } from './task.queue';
import { McpTaskRunner } from './task.runner';
import { McpTaskWatch } from './task-watch';
import { McpTaskRunGate } from './task-run-gate';
import { roomyTaskCaps, taskRecordFixture } from './task-record.fixture';

const options = resolveMcpOptions({ name: 'svc', version: '1.0.0' });

/** A task store that can be emptied, as a Redis restarted without its data: every task is then unknown. */
class EmptiedTaskStore extends InMemoryTaskStore {
  empty = false;
  override get(id: string, owner?: string): Promise<McpTaskRecord | undefined> {
    return this.empty ? Promise.resolve(undefined) : super.get(id, owner);
  }
  override head(id: string): Promise<McpTaskHead | undefined> {
    return this.empty ? Promise.resolve(undefined) : super.head(id);
  }
  override update(id: string, change: (current: McpTaskRecord) => McpTaskPatch | undefined) {
    return this.empty ? Promise.resolve(undefined) : super.update(id, change);
  }
}

/**
 * A runner of the mutating, non-idempotent tool `provision` (risk medium: each run writes a `task_run` audit event),
 * with the real observer; `go()` lets the tool's run finish.
 */
function setup() {
  const store = new EmptiedTaskStore();
  const events = new McpTaskEvents(new InMemoryMessageBus());
  events.onModuleInit();
  let go!: () => void;
  const finished = new Promise<void>((r) => (go = r));
  let started!: () => void;
  const running = new Promise<void>((r) => (started = r));
  const tool = {
    name: 'provision',
    timeoutMs: 30_000,
    risk: 'medium',
    validateInput: Object.assign(() => true, { errors: null }),
    validateOutput: undefined,
    task: { support: 'required', asksFirst: false, idempotent: false },
    handler: async (_args: unknown, ctx: McpCallContext) => {
      started();
      // What a downstream client does for each request (a no-op until one exists: enableCallScope).
      for (const name of ['jira', 'gitlab', 'jira']) noteDownstream(name);
      // A side effect that does not stop on the signal (it has begun): the run ends with it.
      await Promise.race([finished, new Promise((r) => ctx.signal.addEventListener('abort', r))]);
      return 'provisioned';
    },
  } as unknown as ToolEntry;
  const registry = { tools: new Map([['provision', tool]]) } as unknown as McpRegistry;
  const audits: McpAuditEvent[] = [];
  const metrics = { registry: new McpMetrics(options, {} as never).registry } as McpMetrics;
  const observer = new McpTaskObserver(metrics, store, { write: (e) => void audits.push(e) });
  const runner = new McpTaskRunner(
    options,
    store,
    { durable: true } as McpTaskQueue,
    events,
    registry,
    new RequestStateCodec(new InMemoryKeyStore()),
    observer,
    new McpTaskWatch(store, events),
    new McpTaskRunGate(options, store, new InMemoryLimitStore()),
  );
  const outcomes = async () =>
    ((await metrics.registry.getSingleMetric('mcp_task_runs_total')!.get()).values ?? [])
      .filter((v) => v.value > 0)
      .map((v) => v.labels.status);
  return { store, runner, audits, go, running, outcomes };
}

const record = () => taskRecordFixture({ tool: 'provision' });

describe('the outcome of a task run whose record vanished (a task store emptied under it)', () => {
  it('is `lost` in the audit and the metrics when the store emptied while the run went on', async () => {
    const { store, runner, audits, go, running, outcomes } = setup();
    await store.create(record(), roomyTaskCaps);
    const run = runner.runTask('t1');
    await running;
    store.empty = true;
    go();
    await run;
    expect(audits).toEqual([expect.objectContaining({ event: 'task_run', taskId: 't1', outcome: 'lost' })]);
    expect(await outcomes()).toEqual(['lost']);
  });

  it('is `lost`, not `handed_on`, when the queue lost the run’s lock with the rest of the store', async () => {
    const { store, runner, audits, running, outcomes } = setup();
    await store.create(record(), roomyTaskCaps);
    const run = runner.runTask('t1');
    await running;
    store.empty = true;
    runner.handOn(['t1']);
    await run;
    expect(audits).toEqual([expect.objectContaining({ taskId: 't1', outcome: 'lost' })]);
    expect(await outcomes()).toEqual(['lost']);
  });

  it('stays `handed_on` when the lock was lost but the task is still in the store (another worker decides)', async () => {
    const { store, runner, audits, running } = setup();
    await store.create(record(), roomyTaskCaps);
    const run = runner.runTask('t1');
    await running;
    runner.handOn(['t1']);
    await run;
    expect(audits).toEqual([expect.objectContaining({ taskId: 't1', outcome: 'handed_on' })]);
    expect(await store.get('t1')).toMatchObject({ status: 'working', attempts: 1 });
  });

  it('is the task’s status when its outcome was recorded', async () => {
    const { store, runner, audits, go, running } = setup();
    await store.create(record(), roomyTaskCaps);
    const run = runner.runTask('t1');
    await running;
    go();
    await run;
    expect(audits).toEqual([expect.objectContaining({ taskId: 't1', outcome: 'completed' })]);
  });

  it('names the downstreams the run used in its audit event once a downstream client exists, none before', async () => {
    for (const [enabled, expected] of [
      [false, undefined],
      [true, ['jira', 'gitlab']],
    ] as const) {
      if (enabled) enableCallScope(); // what building a downstream client does at boot
      const { store, runner, audits, go, running } = setup();
      await store.create(record(), roomyTaskCaps);
      const run = runner.runTask('t1');
      await running;
      go();
      await run;
      expect(audits).toHaveLength(1);
      expect(audits[0].downstreams).toEqual(expected);
    }
  });
});

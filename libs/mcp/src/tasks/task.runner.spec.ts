import { resolveMcpOptions } from '../mcp-options.resolver';
import { InMemoryTaskStore } from '../stores/in-memory-task.store';
import { InMemoryMessageBus } from '../stores/in-memory-message.bus';
import { InMemoryKeyStore } from '../stores/in-memory-key.store';
import { McpTaskRecord } from '../stores/task.store';
import { RequestStateCodec } from '../pipeline/request-state.codec';
import { McpRegistry } from '../registry/mcp.registry';
import { ToolEntry } from '../registry/registry-entries';
import { McpCallContext } from '../context/call-context.interface';
import { McpTaskEvents } from './task-events';
import { McpTaskObserver } from './task-observer';
import { McpTaskQueue } from './task.queue';
import { McpTaskRunner } from './task.runner';
import { McpTaskWatch } from './task-watch';
import { McpTaskRunGate } from './task-run-gate';
import { InMemoryLimitStore } from '../stores/in-memory-limit.store';
import { roomyTaskCaps, taskRecordFixture } from './task-record.fixture';

const options = resolveMcpOptions({ name: 'svc', version: '1.0.0' });
const accept = () => true;

function setup(handler: (ctx: McpCallContext) => Promise<unknown>, idempotent: boolean, opts = options) {
  const store = new InMemoryTaskStore();
  const events = new McpTaskEvents(new InMemoryMessageBus());
  events.onModuleInit();
  const runs: string[] = [];
  const tool = {
    name: 'job',
    timeoutMs: 30_000,
    validateInput: Object.assign(accept, { errors: null }),
    validateOutput: undefined,
    task: { support: 'optional', asksFirst: false, idempotent },
    handler: (_args: unknown, ctx: McpCallContext) => {
      runs.push(ctx.taskId!);
      return handler(ctx);
    },
  } as unknown as ToolEntry;
  const registry = { tools: new Map([['job', tool]]) } as unknown as McpRegistry;
  const observer = { runStarted: () => ({ ctx: undefined, end: () => undefined }) } as unknown as McpTaskObserver;
  const queue = { durable: true } as McpTaskQueue;
  const runner = new McpTaskRunner(
    opts,
    store,
    queue,
    events,
    registry,
    new RequestStateCodec(new InMemoryKeyStore()),
    observer,
    new McpTaskWatch(store, events),
    new McpTaskRunGate(opts, store, new InMemoryLimitStore()),
  );
  return { store, events, runner, runs };
}

const record = (over: Partial<McpTaskRecord> = {}) => taskRecordFixture(over);
const caps = roomyTaskCaps;
/** A caller whose client answers questions. */
const asker = { protocolVersion: '2026-07-28', transport: 'http' as const, clientCapabilities: { elicitation: {} } };

describe('the task runner', () => {
  it('runs the tool as the task and records its result', async () => {
    const { store, runner, runs } = setup(async () => 'done', false);
    await store.create(record(), caps);
    await runner.runTask('t1');
    expect(runs).toEqual(['t1']);
    expect(await store.get('t1')).toMatchObject({
      status: 'completed',
      attempts: 1,
      result: { content: [{ type: 'text', text: 'done' }] },
    });
  });

  it('cuts a result to tasks.maxBytes, with the visible marker, since it is kept for the task’s ttl', async () => {
    const small = resolveMcpOptions({ name: 'svc', version: '1.0.0', tasks: { maxBytes: 2_048 } });
    const { store, runner } = setup(async () => 'x'.repeat(50_000), false, small);
    await store.create(record(), caps);
    await runner.runTask('t1');
    const done = (await store.get('t1'))!;
    expect(done.status).toBe('completed');
    expect(JSON.stringify(done.result).length).toBeLessThan(2_600);
    expect(JSON.stringify(done.result)).toContain('[truncated');
  });

  it('runs at most maxRunningPerSubject tasks of one caller at once: the next one is put back for later', async () => {
    const one = resolveMcpOptions({ name: 'svc', version: '1.0.0', tasks: { maxRunningPerSubject: 1 } });
    const waiting: (() => void)[] = [];
    const finish = () => waiting.splice(0).forEach((go) => go());
    const { store, runner, runs } = setup(() => new Promise<string>((r) => waiting.push(() => r('ok'))), true, one);
    await store.create(record({ id: 'a1' }), caps);
    await store.create(record({ id: 'a2' }), caps);
    await store.create(record({ id: 'b1', owner: 'bob' }), caps);
    const first = runner.runTask('a1');
    await new Promise((r) => setTimeout(r, 20));
    const later = await runner.runTask('a2');
    expect(later).toEqual({ laterMs: expect.any(Number) });
    expect((later as { laterMs: number }).laterMs).toBeGreaterThanOrEqual(1_000);
    // Each time it is taken again it waits longer (up to 30 s).
    expect(((await runner.runTask('a2', 4)) as { laterMs: number }).laterMs).toBeGreaterThanOrEqual(8_000);
    expect(((await runner.runTask('a2', 40)) as { laterMs: number }).laterMs).toBeLessThanOrEqual(31_000);
    // A task cancelled while it waited is not put back: the run finds it final and it leaves the queue.
    await store.create(record({ id: 'a3' }), caps);
    await store.update('a3', () => ({ status: 'cancelled' }));
    expect(await runner.runTask('a3')).toBeUndefined();
    expect(await store.get('a2')).toMatchObject({ status: 'working', attempts: 0 }); // untouched: not started
    const bob = runner.runTask('b1'); // another caller has places of its own
    await new Promise((r) => setTimeout(r, 20));
    expect(runs).toEqual(['a1', 'b1']);
    finish();
    await Promise.all([first, bob]);
    const again = runner.runTask('a2');
    await new Promise((r) => setTimeout(r, 20));
    finish();
    expect(await again).toBeUndefined(); // a place is free again
    expect(await store.get('a2')).toMatchObject({ status: 'completed', attempts: 1 });
  });

  it('withdraws a question nobody answers within inputTimeoutMs and fails it in the tool with -32004', async () => {
    const quick = resolveMcpOptions({ name: 'svc', version: '1.0.0', tasks: { inputTimeoutMs: 100 } });
    const { store, runner } = setup(
      async (ctx) => {
        const error = await ctx
          .elicit({ mode: 'form', message: 'sure?', requestedSchema: { type: 'object', properties: {} } })
          .catch((e) => e);
        const task = await store.get('t1');
        return `${(error as { code: number }).code} ${task!.status} ${Object.keys(task!.inputRequests).length}`;
      },
      false,
      quick,
    );
    const caller = {
      protocolVersion: '2026-07-28',
      transport: 'http' as const,
      clientCapabilities: { elicitation: {} },
    };
    await store.create(record({ caller }), caps);
    await runner.runTask('t1');
    expect((await store.get('t1'))!.result).toMatchObject({ content: [{ text: '-32004 working 0' }] });
  });

  it('runs a task handed on twice at once only once', async () => {
    const { store, runner, runs } = setup(() => new Promise((r) => setTimeout(() => r('once'), 50)), true);
    await store.create(record(), caps);
    await Promise.all([runner.runTask('t1'), runner.runTask('t1')]);
    expect(runs).toEqual(['t1']);
  });

  it('runs a task again when the queue hands it back here while its handed-on run is still stopping', async () => {
    // The lock of the run here lapsed during a Redis outage and this replica took the job back: the old run stops and
    // records nothing, so the activation holding the job must run the task itself.
    let release!: () => void;
    const first = new Promise<string>((resolve) => (release = () => resolve('stale')));
    let calls = 0;
    const { store, runner, runs } = setup(() => (++calls === 1 ? first : Promise.resolve('fresh')), true);
    await store.create(record(), caps);
    const old = runner.runTask('t1');
    await new Promise((r) => setTimeout(r, 20));
    runner.handOn(['t1']);
    const taken = runner.runTask('t1', 2);
    release();
    await Promise.all([old, taken]);
    expect(runs).toEqual(['t1', 't1']);
    expect(await store.get('t1')).toMatchObject({
      status: 'completed',
      attempts: 2,
      result: { content: [{ type: 'text', text: 'fresh' }] },
    });
  });

  it('runs a cut-short idempotent task again, and fails a non-idempotent one with a clear message', async () => {
    const idempotent = setup(async () => 'again', true);
    await idempotent.store.create(record({ attempts: 1 }), caps);
    await idempotent.runner.runTask('t1');
    expect(await idempotent.store.get('t1')).toMatchObject({ status: 'completed', attempts: 2 });

    const once = setup(async () => 'twice?', false);
    await once.store.create(record({ attempts: 1 }), caps);
    await once.runner.runTask('t1');
    expect(once.runs).toEqual([]);
    const failed = await once.store.get('t1');
    expect(failed).toMatchObject({ status: 'failed', error: { code: -32603 } });
    expect(failed?.error?.message).toMatch(/stopped before it finished.*not idempotent/s);
  });

  it('stops a run when its task is cancelled elsewhere, and the task stays cancelled', async () => {
    let seen: AbortSignal | undefined;
    const { store, events, runner } = setup(
      (ctx) =>
        new Promise((_, reject) => {
          seen = ctx.signal;
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason));
        }),
      true,
    );
    await store.create(record(), caps);
    const running = runner.runTask('t1');
    await new Promise((r) => setTimeout(r, 20));
    await store.update('t1', () => ({ status: 'cancelled' }));
    await events.changed('t1');
    await running;
    expect(seen?.aborted).toBe(true);
    expect((await store.get('t1'))?.status).toBe('cancelled');
  });

  it.each([
    [
      'an answer to its question',
      (ctx: McpCallContext) =>
        ctx.elicit({ mode: 'form', message: 'sure?', requestedSchema: { type: 'object', properties: {} } }),
    ],
    ['a timer that ignores its signal', () => new Promise((r) => setTimeout(r, 60_000).unref())],
  ])('ends a cancelled run at once, whatever it waits on (%s), freeing its places', async (_what, wait) => {
    const one = resolveMcpOptions({ name: 'svc', version: '1.0.0', tasks: { maxRunningPerSubject: 1 } });
    let outcome: unknown = 'pending';
    const { store, events, runner, runs } = setup(
      (ctx) =>
        ctx.taskId === 't1'
          ? wait(ctx).then(
              () => 'answered',
              (e: unknown) => ((outcome = e), 'stopped'),
            )
          : Promise.resolve('next'),
      false,
      one,
    );
    await store.create(record({ id: 't1', caller: asker }), caps);
    await store.create(record({ id: 't2' }), caps);
    const running = runner.runTask('t1');
    await new Promise((r) => setTimeout(r, 20));
    expect(await runner.runTask('t2')).toEqual({ laterMs: expect.any(Number) }); // the caller's one place is taken
    await store.update('t1', () => ({ status: 'cancelled' }));
    await events.changed('t1');
    expect(await running).toBeUndefined(); // the run is over (with the old code it waited for the tool)
    expect((await store.get('t1'))?.status).toBe('cancelled');
    expect(await runner.runTask('t2')).toBeUndefined(); // the place is free again
    expect(runs).toEqual(['t1', 't2']);
    expect(await store.get('t2')).toMatchObject({ status: 'completed' });
    if (_what.startsWith('an answer')) expect(outcome).toMatchObject({ message: 'Request cancelled' });
  });

  it('refuses a question that would make the task larger than tasks.maxBytes when it is asked', async () => {
    const small = resolveMcpOptions({ name: 'svc', version: '1.0.0', tasks: { maxBytes: 4_096 } });
    let refused: unknown;
    const { store, runner } = setup(
      (ctx) =>
        ctx
          .elicit({ mode: 'form', message: 'x'.repeat(5_000), requestedSchema: { type: 'object', properties: {} } })
          .catch((e: unknown) => ((refused = e), 'refused')),
      false,
      small,
    );
    await store.create(record({ caller: asker }), caps);
    await runner.runTask('t1');
    expect(refused).toMatchObject({ code: -32602, data: { reason: 'task_too_large', max: 4_096 } });
    const done = (await store.get('t1'))!;
    expect(done).toMatchObject({ status: 'completed', inputRequests: {} });
    expect(JSON.stringify(done).length).toBeLessThan(4_096);
  });

  it('fails a run past its deadline with -32004 instead of running it', async () => {
    const { store, runner, runs } = setup(async () => 'late', true);
    await store.create(record({ deadline: Date.now() - 1 }), caps);
    await runner.runTask('t1');
    expect(runs).toEqual([]);
    expect(await store.get('t1')).toMatchObject({ status: 'failed', error: { code: -32004 } });
  });
});

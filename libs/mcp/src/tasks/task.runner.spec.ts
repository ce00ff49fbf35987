import { resolveMcpOptions } from '../mcp-options.resolver';
import { InMemoryTaskStore } from '../stores/in-memory-task.store';
import { InMemoryMessageBus } from '../stores/in-memory-message.bus';
import { InMemoryKeyStore } from '../stores/in-memory-key.store';
import { McpTaskRecord } from '../stores/task.store';
import { RequestStateCodec } from '../pipeline/request-state.codec';
import { McpRegistry } from '../registry/mcp.registry';
import { ToolEntry } from '../registry/registry-entries';
import { McpCallContext } from '../interfaces/call-context.interface';
import { McpTaskEvents } from './task-events';
import { McpTaskObserver } from './task-observer';
import { McpTaskQueue } from './task.queue';
import { McpTaskRunner } from './task.runner';

const options = resolveMcpOptions({ name: 'svc', version: '1.0.0' });
const accept = () => true;

function setup(handler: (ctx: McpCallContext) => Promise<unknown>, idempotent: boolean) {
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
    options,
    store,
    queue,
    events,
    registry,
    new RequestStateCodec(new InMemoryKeyStore()),
    observer,
  );
  return { store, events, runner, runs };
}

const record = (over: Partial<McpTaskRecord> = {}): McpTaskRecord => ({
  id: 't1',
  owner: 'alice',
  tool: 'job',
  arguments: {},
  caller: { protocolVersion: '2026-07-28', transport: 'http', clientCapabilities: {} },
  status: 'working',
  createdAt: Date.now(),
  lastUpdatedAt: Date.now(),
  ttlMs: 60_000,
  pollIntervalMs: 1_000,
  deadline: Date.now() + 30_000,
  answers: {},
  inputRequests: {},
  asked: [],
  attempts: 0,
  ...over,
});
const caps = { perOwner: 10, total: 10 };

describe('the task runner', () => {
  it('runs the tool as the task and records its result', async () => {
    const { store, runner, runs } = setup(async () => 'done', false);
    await store.create(record(), caps);
    await runner.run('t1');
    expect(runs).toEqual(['t1']);
    expect(await store.get('t1')).toMatchObject({
      status: 'completed',
      attempts: 1,
      result: { content: [{ type: 'text', text: 'done' }] },
    });
  });

  it('runs a task handed on twice at once only once', async () => {
    const { store, runner, runs } = setup(() => new Promise((r) => setTimeout(() => r('once'), 50)), true);
    await store.create(record(), caps);
    await Promise.all([runner.run('t1', 1), runner.run('t1', 2)]);
    expect(runs).toEqual(['t1']);
  });

  it('runs a cut-short idempotent task again, and fails a non-idempotent one with a clear message', async () => {
    const idempotent = setup(async () => 'again', true);
    await idempotent.store.create(record({ attempts: 1 }), caps);
    await idempotent.runner.run('t1', 2);
    expect(await idempotent.store.get('t1')).toMatchObject({ status: 'completed', attempts: 2 });

    const once = setup(async () => 'twice?', false);
    await once.store.create(record({ attempts: 1 }), caps);
    await once.runner.run('t1', 2);
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
    const running = runner.run('t1');
    await new Promise((r) => setTimeout(r, 20));
    await store.update('t1', () => ({ status: 'cancelled' }));
    await events.changed('t1');
    await running;
    expect(seen?.aborted).toBe(true);
    expect((await store.get('t1'))?.status).toBe('cancelled');
  });

  it('fails a run past its deadline with -32004 instead of running it', async () => {
    const { store, runner, runs } = setup(async () => 'late', true);
    await store.create(record({ deadline: Date.now() - 1 }), caps);
    await runner.run('t1');
    expect(runs).toEqual([]);
    expect(await store.get('t1')).toMatchObject({ status: 'failed', error: { code: -32004 } });
  });
});

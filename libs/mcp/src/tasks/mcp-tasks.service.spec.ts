import { resolveMcpOptions } from '../mcp-options.resolver';
import { McpPeer } from '../context/mcp-peer';
import { InMemoryTaskStore } from '../stores/in-memory-task.store';
import { InMemoryMessageBus } from '../stores/in-memory-message.bus';
import { RequestContext } from '../pipeline/request-context';
import { ToolEntry } from '../registry/registry-entries';
import { McpTasks } from './mcp-tasks.service';
import { McpTaskEvents } from './task-events';
import { McpTaskFollowers } from './task-followers';
import { McpTaskObserver } from './task-observer';
import { McpTaskQueue } from './task.queue';
import { McpTaskWatch } from './task-watch';
import { StreamLimiter } from '../admission/stream-limiter';
import { McpAdmission } from '../admission/mcp-admission.service';
import { RequestBudget } from '../admission/request-budget';
import { SessionBudget } from '../admission/session-budget';
import { InMemoryLimitStore } from '../stores/in-memory-limit.store';

const options = resolveMcpOptions({
  name: 'svc',
  version: '1.0.0',
  tasks: { maxOpenPerSubject: 2, maxOpen: 3, maxKeptPerSubject: 3, maxBytes: 4_096 },
  limits: { maxStreamsPerSubject: 1 },
});
const tool = { name: 'job', task: { support: 'optional', asksFirst: false, idempotent: true } } as unknown as ToolEntry;

function setup(queue: Partial<McpTaskQueue> = {}) {
  const store = new InMemoryTaskStore();
  const events = new McpTaskEvents(new InMemoryMessageBus());
  events.onModuleInit();
  const watch = new McpTaskWatch(store, events);
  const queued: string[] = [];
  const tasks = new McpTasks(
    options,
    store,
    {
      durable: false,
      enqueue: async (id) => void queued.push(id),
      work: () => undefined,
      close: async () => undefined,
      ...queue,
    },
    events,
    new McpTaskFollowers(store, events, watch),
    { taskCreated: () => undefined } as unknown as McpTaskObserver,
    watch,
    new McpAdmission(
      options,
      new InMemoryLimitStore(),
      {} as RequestBudget,
      new StreamLimiter(options, new InMemoryLimitStore()),
      {} as SessionBudget,
    ),
  );
  return { store, tasks, queued, events, watch };
}

function scopeOf(subject: string): RequestContext {
  const peer = McpPeer.forRequest('http', '2026-07-28', undefined, {}, undefined, undefined);
  const passThrough = { call: <T>(_c: unknown, _t: unknown, _r: unknown, work: () => Promise<T>) => work() };
  return {
    requestId: 'r',
    principal: { subject, scopes: new Set(), claims: { sub: subject } },
    abort: () => undefined,
    message: { jsonrpc: '2.0', id: 1, method: 'tools/call' },
    peer,
    sink: { send: () => true },
    signal: new AbortController().signal,
    options,
    admission: passThrough,
    states: undefined as never,
  };
}

describe('the request side of tasks', () => {
  it('writes the task before queueing it, bound to its caller, with the settings it will run by', async () => {
    const { tasks, store, queued } = setup();
    const task = await tasks.create(scopeOf('alice'), tool, { a: 1 }, undefined);
    expect(queued).toEqual([task.id]);
    expect(await store.get(task.id)).toMatchObject({
      owner: 'alice',
      tool: 'job',
      arguments: { a: 1 },
      status: 'working',
      ttlMs: options.tasks.ttlMs,
      caller: { protocolVersion: '2026-07-28', principal: { subject: 'alice' } },
    });
  });

  it('lets a 2025 client shorten its task’s life, never lengthen it past the tool’s', async () => {
    const { tasks } = setup();
    const short = await tasks.create(scopeOf('alice'), tool, {}, undefined, 5_000);
    const long = await tasks.create(scopeOf('alice'), tool, {}, undefined, options.tasks.maxTtlMs);
    expect([short.ttlMs, long.ttlMs]).toEqual([5_000, options.tasks.ttlMs]);
  });

  it('answers an unknown id and another caller’s task alike', async () => {
    const { tasks } = setup();
    const task = await tasks.create(scopeOf('alice'), tool, {}, undefined);
    expect(await tasks.find(scopeOf('alice'), task.id)).toMatchObject({ id: task.id });
    const errors = await Promise.all(
      [tasks.find(scopeOf('bob'), task.id), tasks.find(scopeOf('alice'), 'nope')].map((p) => p.catch((e) => e)),
    );
    for (const e of errors)
      expect(e).toMatchObject({ code: -32602, message: 'Failed to retrieve task: Task not found' });
    await expect(tasks.find(scopeOf('alice'), 42)).rejects.toMatchObject({ code: -32602 });
  });

  it('refuses past the caps with -32003 naming the cap (per caller, then the deployment)', async () => {
    const { tasks } = setup();
    await tasks.create(scopeOf('alice'), tool, {}, undefined);
    await tasks.create(scopeOf('alice'), tool, {}, undefined);
    await expect(tasks.create(scopeOf('alice'), tool, {}, undefined)).rejects.toMatchObject({
      code: -32003,
      data: { reason: 'too_many_tasks', max: 2 },
    });
    await tasks.create(scopeOf('bob'), tool, {}, undefined);
    await expect(tasks.create(scopeOf('carol'), tool, {}, undefined)).rejects.toMatchObject({
      code: -32003,
      data: { reason: 'task_queue_full', max: 3 },
    });
  });

  it('fails the task and answers -32006 when the queue does not take it', async () => {
    const { tasks, store } = setup({ enqueue: () => Promise.reject(new Error('down')) });
    await expect(tasks.create(scopeOf('alice'), tool, {}, undefined)).rejects.toMatchObject({ code: -32006 });
    const [left] = (await store.list('alice', undefined, 10)).tasks;
    expect(left).toMatchObject({ status: 'failed' });
  });

  it('takes answers only for the questions open now, and goes back to working once none is left', async () => {
    const { tasks, store } = setup();
    const task = await tasks.create(scopeOf('alice'), tool, {}, undefined);
    await store.update(task.id, () => ({
      status: 'input_required',
      inputRequests: {
        a: { method: 'elicitation/create', params: {} },
        b: { method: 'elicitation/create', params: {} },
      },
      asked: ['a', 'b'],
    }));
    const partial = await tasks.answer(scopeOf('alice'), task.id, {
      a: { action: 'accept' },
      z: { action: 'accept' },
      constructor: { action: 'accept' },
      toString: { action: 'accept' },
    });
    expect(partial).toMatchObject({ status: 'input_required', answers: { a: { action: 'accept' } } });
    expect(Object.keys(partial.inputRequests)).toEqual(['b']);
    expect(Object.keys(partial.answers)).toEqual(['a']); // never asked: ignored, inherited names included
    expect(await tasks.answer(scopeOf('alice'), task.id, { b: { action: 'decline' } })).toMatchObject({
      status: 'working',
      inputRequests: {},
    });
  });

  it('fails a task still open well past its deadline, so none stays working for ever', async () => {
    const { tasks, store } = setup();
    const task = await tasks.create(scopeOf('alice'), tool, {}, undefined);
    const held = (store as unknown as { records: Map<string, { deadline: number }> }).records.get(task.id)!;
    held.deadline = Date.now() - 3 * options.tasks.lockMs - 10_000;
    expect(await tasks.find(scopeOf('alice'), task.id)).toMatchObject({ status: 'failed', error: { code: -32004 } });
  });

  it('refuses a caller at maxKeptPerSubject kept tasks, finished ones included, saying when to retry', async () => {
    const { tasks } = setup();
    for (let i = 0; i < 3; i++) {
      const task = await tasks.create(scopeOf('alice'), tool, {}, undefined);
      await tasks.cancel(scopeOf('alice'), task.id);
    }
    const refused = await tasks.create(scopeOf('alice'), tool, {}, undefined).catch((e) => e);
    expect(refused).toMatchObject({ code: -32003, data: { reason: 'too_many_kept_tasks', max: 3 } });
    expect(refused.data.retryAfter).toBeGreaterThan(3_500); // the oldest expires in about an hour
    expect(refused.message).toMatch(/at most 3 tasks per caller are kept/);
  });

  it('refuses arguments or answers that would make the task keep more than maxBytes', async () => {
    const { tasks, store } = setup();
    await expect(tasks.create(scopeOf('alice'), tool, { blob: 'x'.repeat(5_000) }, undefined)).rejects.toMatchObject({
      code: -32602,
      data: { reason: 'task_too_large', max: 4_096 },
    });
    expect(await store.countOpen('alice')).toBe(0);
    const task = await tasks.create(scopeOf('alice'), tool, {}, undefined);
    await store.update(task.id, () => ({
      status: 'input_required',
      inputRequests: { a: { method: 'elicitation/create', params: {} } },
      asked: ['a'],
    }));
    const big = { action: 'accept', content: { text: 'x'.repeat(5_000) } };
    await expect(tasks.answer(scopeOf('alice'), task.id, { a: big })).rejects.toMatchObject({
      code: -32602,
      data: { reason: 'task_too_large' },
    });
    expect(await store.get(task.id)).toMatchObject({ status: 'input_required', answers: {} });
  });

  it('holds a stream place while a tasks/result waits, refusing a second wait of the caller past its cap', async () => {
    const { tasks, store, events, watch } = setup();
    const task = await tasks.create(scopeOf('alice'), tool, {}, undefined);
    const final = (t: { status: string }) => t.status === 'completed';
    const waiting = tasks.settle(scopeOf('alice'), task.id, final);
    await new Promise((r) => setImmediate(r));
    await expect(tasks.settle(scopeOf('alice'), task.id, final)).rejects.toMatchObject({
      code: -32003,
      data: { reason: 'stream_limit' },
    });
    // Another caller has places of its own (and gets only "not found" for alice's task).
    await expect(tasks.settle(scopeOf('bob'), task.id, final)).rejects.toMatchObject({ code: -32602 });
    expect(watch.size).toBe(1);
    await store.update(task.id, () => ({ status: 'completed', result: { content: [] } }));
    await events.changed(task.id);
    expect(await waiting).toMatchObject({ status: 'completed' });
    expect(watch.size).toBe(0);
    // The place came back: alice may wait again (a final task answers at once).
    expect(await tasks.settle(scopeOf('alice'), task.id, final)).toMatchObject({ status: 'completed' });
  });

  it('gives the place back and answers at once when the wait was aborted before it began', async () => {
    const { tasks, watch } = setup();
    const task = await tasks.create(scopeOf('alice'), tool, {}, undefined);
    const controller = new AbortController();
    controller.abort();
    const aborted = { ...scopeOf('alice'), signal: controller.signal };
    expect(await tasks.settle(aborted, task.id, (t) => t.status === 'completed')).toBeUndefined();
    expect(watch.size).toBe(0);
    // The one place of alice (maxStreamsPerSubject 1) is free again.
    const again = tasks.settle(scopeOf('alice'), task.id, (t) => t.status === 'working');
    expect(await again).toMatchObject({ status: 'working' });
  });
});

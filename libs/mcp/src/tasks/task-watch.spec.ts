import { InMemoryTaskStore } from '../stores/in-memory-task.store';
import { InMemoryMessageBus } from '../stores/in-memory-message.bus';
import { McpTaskRecord } from '../stores/task.store';
import { McpTaskEvents } from './task-events';
import { McpTaskWatch } from './task-watch';
import { roomyTaskCaps, taskRecordFixture } from './task-record.fixture';

async function setup() {
  const store = new InMemoryTaskStore();
  const events = new McpTaskEvents(new InMemoryMessageBus());
  events.onModuleInit();
  await store.create(taskRecordFixture(), roomyTaskCaps);
  const gets = jest.spyOn(store, 'get');
  const heads = jest.spyOn(store, 'head');
  return { store, events, watch: new McpTaskWatch(store, events), gets, heads };
}

const settle = () => new Promise((r) => setImmediate(r));

describe('one shared watch per task', () => {
  afterEach(() => jest.useRealTimers());

  it('reads a changed task once for every waiter on this replica, and stops when the last one leaves', async () => {
    const { store, events, watch, gets } = await setup();
    const seen: (string | undefined)[][] = [[], [], []];
    const stops = seen.map((list) => watch.watch('t1', (t) => list.push(t?.statusMessage)));
    expect(watch.size).toBe(1);
    await store.update('t1', () => ({ statusMessage: 'half way' }));
    await events.changed('t1');
    await settle();
    expect(gets).toHaveBeenCalledTimes(1);
    expect(seen).toEqual([['half way'], ['half way'], ['half way']]);
    stops.forEach((stop) => stop());
    expect(watch.size).toBe(0);
    await events.changed('t1');
    await settle();
    expect(gets).toHaveBeenCalledTimes(1);
  });

  it('looks at the head every two seconds and reads the whole task only when its revision moved', async () => {
    jest.useFakeTimers();
    const { store, watch, gets, heads } = await setup();
    const seen: McpTaskRecord[] = [];
    const stop = watch.watch('t1', (t) => t && seen.push(t));
    await jest.advanceTimersByTimeAsync(2_000); // first look: nothing read in full yet
    expect(gets).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(4_000); // unchanged: heads only
    expect(heads).toHaveBeenCalledTimes(3);
    expect(gets).toHaveBeenCalledTimes(1);
    // A change whose notice was lost is still seen, on the next look.
    await store.update('t1', () => ({ status: 'cancelled' }));
    await jest.advanceTimersByTimeAsync(2_000);
    expect(gets).toHaveBeenCalledTimes(2);
    expect(seen.at(-1)).toMatchObject({ status: 'cancelled' });
    stop();
  });

  it('tells waiters when the task is gone', async () => {
    const { events, watch } = await setup();
    const seen: unknown[] = [];
    const stop = watch.watch('nope', (t) => seen.push(t));
    await events.changed('nope');
    await settle();
    expect(seen).toEqual([undefined]);
    stop();
  });

  it('reads again for a waiter that joins after the others heard a change it missed', async () => {
    jest.useFakeTimers();
    const { store, watch } = await setup();
    const first: unknown[] = [];
    const stopFirst = watch.watch('t1', (t) => first.push(t?.status));
    await jest.advanceTimersByTimeAsync(2_000); // the first look records the revision
    await store.update('t1', () => ({ status: 'cancelled' })); // notice lost
    await jest.advanceTimersByTimeAsync(2_000);
    expect(first.at(-1)).toBe('cancelled');
    const late: unknown[] = [];
    const stopLate = watch.watch('t1', (t) => late.push(t?.status));
    await jest.advanceTimersByTimeAsync(2_000);
    expect(late).toEqual(['cancelled']);
    stopFirst();
    stopLate();
  });

  it('tells every waiter even when one of them throws', async () => {
    const { events, watch } = await setup();
    const seen: string[] = [];
    const stops = [
      watch.watch('t1', () => {
        throw new Error('a faulty waiter');
      }),
      watch.watch('t1', (t) => seen.push(t!.id)),
    ];
    await events.changed('t1');
    await settle();
    expect(seen).toEqual(['t1']);
    stops.forEach((stop) => stop());
  });
});

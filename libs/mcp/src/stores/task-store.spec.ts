import { RedisTaskStore } from './redis-task.store';
import { McpTaskStore } from './task.store';
import { roomy, sleep, task, taskStoreImplementations } from './task-store.fixture';

const { implementations, redis: client, prefix, open, close } = taskStoreImplementations();
beforeAll(open);
afterAll(close);

describe.each(implementations)('%s (task store contract)', (name, make) => {
  let store: McpTaskStore;
  let other: McpTaskStore;
  beforeEach(() => ({ store, other } = make()));

  it('stores a task that get returns as a copy, on any replica', async () => {
    const record = task();
    expect(await store.create(record, roomy)).toBeUndefined();
    const got = await other.get(record.id);
    expect(got).toEqual(record);
    got!.status = 'failed';
    (got!.arguments as { q: string }).q = 'changed';
    got!.asked.push('k');
    record.tool = 'changed after create';
    expect(await store.get(record.id)).toEqual({ ...record, tool: 'search' });
  });

  it('answers undefined for an unknown task, and never calls change for it', async () => {
    const change = jest.fn(() => ({ status: 'completed' as const }));
    expect(await store.get('nope')).toBeUndefined();
    expect(await store.update('nope', change)).toBeUndefined();
    expect(change).not.toHaveBeenCalled();
    expect(await store.list('nobody', undefined, 10)).toEqual({ tasks: [] });
    expect(await store.countOpen('nobody')).toBe(0);
  });

  it("reads another owner's task as unknown when get names the owner", async () => {
    const record = task();
    await store.create(record, roomy);
    expect(await other.get(record.id, 'alice')).toEqual(record);
    expect(await other.get(record.id, 'mallory')).toBeUndefined();
  });

  it('gives owner, status and a revision that grows with every change from head', async () => {
    const record = task();
    expect(await store.head(record.id)).toBeUndefined();
    await store.create(record, roomy);
    const before = await other.head(record.id);
    expect(before).toEqual({ owner: 'alice', status: 'working', revision: expect.any(Number) });
    await store.update(record.id, () => ({ statusMessage: 'half way' }));
    const middle = (await other.head(record.id))!;
    expect(middle.revision).toBeGreaterThan(before!.revision);
    await other.update(record.id, () => ({ status: 'cancelled' }));
    const after = (await store.head(record.id))!;
    expect(after).toMatchObject({ status: 'cancelled' });
    expect(after.revision).toBeGreaterThan(middle.revision);
  });

  it('applies a patch through applyTaskPatch and stamps lastUpdatedAt', async () => {
    const record = task({ lastUpdatedAt: Date.now() - 10_000, statusMessage: 'starting' });
    await store.create(record, roomy);
    const before = Date.now();
    const question = { method: 'elicitation/create', params: { message: 'Which desk?', requestedSchema: {} } };
    const waiting = await other.update(record.id, (current) => {
      expect(current).toEqual(record);
      return { status: 'input_required', inputRequests: { q1: question }, asked: ['q1'] };
    });
    expect(waiting).toEqual({
      ...record,
      status: 'input_required',
      statusMessage: undefined, // a new status without a message drops the old one
      inputRequests: { q1: question },
      asked: ['q1'],
      lastUpdatedAt: expect.any(Number),
    });
    expect(waiting!.lastUpdatedAt).toBeGreaterThanOrEqual(before);
    expect(await store.get(record.id)).toEqual(waiting);
    // Leaving input_required closes its questions.
    const resumed = await store.update(record.id, () => ({ status: 'working', attempts: 2 }));
    expect(resumed).toMatchObject({ status: 'working', inputRequests: {}, asked: ['q1'], attempts: 2 });
    expect(await other.get(record.id)).toEqual(resumed);
  });

  it('returns a final task unchanged without calling change', async () => {
    const record = task();
    await store.create(record, roomy);
    const done = await store.update(record.id, () => ({ status: 'failed', error: { code: -32603, message: 'x' } }));
    expect(done).toMatchObject({ status: 'failed', error: { code: -32603, message: 'x' } });
    const change = jest.fn(() => ({ status: 'working' as const }));
    expect(await other.update(record.id, change)).toEqual(done);
    expect(change).not.toHaveBeenCalled();
    expect(await store.get(record.id)).toEqual(done);
  });

  it('changes nothing when change returns undefined', async () => {
    const record = task({ lastUpdatedAt: Date.now() - 5_000 });
    await store.create(record, roomy);
    expect(await store.update(record.id, () => undefined)).toEqual(record);
    expect(await other.get(record.id)).toEqual(record);
  });

  it('loses none of 20 concurrent updates from two replicas', async () => {
    const record = task();
    await store.create(record, roomy);
    const keys = Array.from({ length: 20 }, (_, i) => `k${i}`);
    await Promise.all(
      keys.map((key, i) =>
        (i % 2 ? store : other).update(record.id, (current) => ({
          asked: [...current.asked, key],
          attempts: current.attempts + 1,
        })),
      ),
    );
    const after = await store.get(record.id);
    expect([...after!.asked].sort()).toEqual([...keys].sort());
    expect(after!.attempts).toBe(21);
  });

  it('forgets a task once createdAt + ttlMs has passed', async () => {
    const short = task({ ttlMs: 300 });
    const kept = task();
    await store.create(short, roomy);
    await store.create(kept, roomy);
    await sleep(400);
    expect(await store.get(short.id)).toBeUndefined();
    expect(await other.update(short.id, () => ({ status: 'completed' }))).toBeUndefined();
    expect((await store.list('alice', undefined, 10)).tasks).toEqual([kept]);
    expect(await store.countOpen('alice')).toBe(1);
    expect(await store.countOpen()).toBe(1);
  });
});

describe('RedisTaskStore (Redis keys)', () => {
  it('keeps every key in the {tasks} slot and the record until createdAt + ttlMs, across updates', async () => {
    const redis = client();
    const p = `${prefix}keys:`;
    const store = new RedisTaskStore(redis, p);
    const record = task({ createdAt: Date.now() - 10_000, ttlMs: 70_000 });
    await store.create(record, roomy);
    await store.update(record.id, () => ({ status: 'completed', result: { content: [], structuredContent: {} } }));
    const keys = await redis.keys(`${p}*`);
    expect(keys.sort()).toEqual([
      `${p}{tasks}:bytes`,
      `${p}{tasks}:kept`,
      `${p}{tasks}:kept:alice`,
      `${p}{tasks}:owner:alice`,
      `${p}{tasks}:task:${record.id}`,
      `${p}{tasks}:weights`,
      `${p}{tasks}:weights:alice`,
    ]);
    for (const key of keys) {
      expect(await redis.pttl(key)).toBeGreaterThan(0);
      expect(await redis.pttl(key)).toBeLessThanOrEqual(60_000);
    }
    const ttl = await redis.pttl(`${p}{tasks}:task:${record.id}`);
    expect(ttl).toBeGreaterThan(55_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    expect(await redis.hget(`${p}{tasks}:task:${record.id}`, 'v')).toBe('2');
    expect((await store.get(record.id))!.result).toEqual({ content: [], structuredContent: {} });
  });
});

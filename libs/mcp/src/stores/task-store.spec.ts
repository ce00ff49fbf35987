import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { InvalidParamsError } from '../errors/mcp.error';
import { InMemoryTaskStore } from './in-memory-task.store';
import { RedisTaskStore } from './redis-task.store';
import { encodeTaskCursor } from './task-record.util';
import { McpTaskRecord, McpTaskStore } from './task.store';

// The machine's Redis (CI starts one when absent); every run on its own key prefix, removed afterwards.
const prefix = `test:tasks:${randomBytes(6).toString('hex')}:`;
const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/** A task with every required field; empty objects on purpose (they must come back as objects, not arrays). */
function task(over: Partial<McpTaskRecord> = {}): McpTaskRecord {
  const now = Date.now();
  return {
    id: randomBytes(16).toString('base64url'),
    owner: 'alice',
    tool: 'search',
    arguments: { q: 'tickets', filters: {} },
    caller: {
      protocolVersion: '2025-11-25',
      transport: 'http',
      clientCapabilities: { elicitation: {} },
      clientInfo: { name: 'client', version: '1.0.0' },
      principal: { subject: 'alice', scopes: ['read'], claims: {} },
    },
    status: 'working',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: 60_000,
    pollIntervalMs: 1_000,
    deadline: now + 30_000,
    answers: {},
    inputRequests: {},
    asked: [],
    attempts: 1,
    ...over,
  };
}

const roomy = { perOwner: 100, total: 1_000, keptPerOwner: 1_000, keptTotal: 10_000 };

let redis: Redis;
let redis2: Redis;
beforeAll(() => {
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  redis2 = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  await Promise.all([redis.quit(), redis2.quit()]);
});

/** A store and a second replica sharing its state (in memory: the same store; Redis: another connection). */
interface Replicas {
  store: McpTaskStore;
  other: McpTaskStore;
}
let run = 0;
const implementations: [string, () => Replicas][] = [
  [
    'InMemoryTaskStore',
    () => {
      const store = new InMemoryTaskStore();
      return { store, other: store };
    },
  ],
  [
    'RedisTaskStore',
    () => {
      // A fresh prefix per test: the deployment-wide counts start at zero.
      const p = `${prefix}${++run}:`;
      return { store: new RedisTaskStore(redis, p), other: new RedisTaskStore(redis2, p) };
    },
  ],
];

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

  it("refuses an owner at perOwner open tasks; a task that became final frees the owner's place", async () => {
    const caps = { perOwner: 2, total: 10, keptPerOwner: 1_000, keptTotal: 10_000 };
    const first = task();
    expect(await store.create(first, caps)).toBeUndefined();
    expect(await other.create(task(), caps)).toBeUndefined();
    expect(await store.create(task(), caps)).toEqual({ reason: 'owner_full' });
    expect(await store.create(task({ owner: 'bob' }), caps)).toBeUndefined();
    expect(await store.countOpen('alice')).toBe(2);
    expect(await store.countOpen()).toBe(3);
    await other.update(first.id, () => ({ status: 'cancelled' }));
    expect(await store.countOpen('alice')).toBe(1);
    expect(await store.create(task(), caps)).toBeUndefined();
    expect(await store.create(task(), caps)).toEqual({ reason: 'owner_full' });
  });

  it('refuses anyone when the deployment has total open tasks; a final task frees its place', async () => {
    const caps = { perOwner: 10, total: 2, keptPerOwner: 1_000, keptTotal: 10_000 };
    const first = task();
    expect(await store.create(first, caps)).toBeUndefined();
    expect(await store.create(task({ owner: 'bob' }), caps)).toBeUndefined();
    expect(await other.create(task({ owner: 'carol' }), caps)).toEqual({ reason: 'full' });
    // Both caps reached: the deployment's answer.
    expect(await store.create(task(), { perOwner: 1, total: 2, keptPerOwner: 1_000, keptTotal: 10_000 })).toEqual({
      reason: 'full',
    });
    await store.update(first.id, () => ({ status: 'completed', result: { content: [] } }));
    expect(await store.countOpen()).toBe(1);
    expect(await other.create(task({ owner: 'carol' }), caps)).toBeUndefined();
    expect(await store.countOpen('carol')).toBe(1);
  });

  it('refuses an owner at keptPerOwner live tasks in any state, saying when its oldest expires', async () => {
    const caps = { perOwner: 10, total: 100, keptPerOwner: 2, keptTotal: 100 };
    const now = Date.now();
    const first = task({ createdAt: now, ttlMs: 400 });
    expect(await store.create(first, caps)).toBeUndefined();
    expect(await other.create(task({ createdAt: now, ttlMs: 60_000 }), caps)).toBeUndefined();
    // Cancelled and completed tasks still hold their records until they expire: they count.
    await store.update(first.id, () => ({ status: 'cancelled' }));
    expect(await store.create(task(), caps)).toEqual({ reason: 'owner_kept_full', retryAt: now + 400 });
    expect(await store.create(task({ owner: 'bob' }), caps)).toBeUndefined();
    await sleep(500);
    // The expired one frees its place, and leaves the owner's list.
    const next = task();
    expect(await other.create(next, caps)).toBeUndefined();
    expect((await store.list('alice', undefined, 10)).tasks.map((t) => t.id)).not.toContain(first.id);
    expect(await store.create(task(), caps)).toMatchObject({ reason: 'owner_kept_full' });
  });

  it('refuses anyone when the deployment keeps keptTotal tasks, final ones included', async () => {
    const caps = { perOwner: 10, total: 100, keptPerOwner: 10, keptTotal: 2 };
    const first = task({ ttlMs: 400 });
    expect(await store.create(first, caps)).toBeUndefined();
    await store.update(first.id, () => ({ status: 'completed', result: { content: [] } }));
    expect(await store.create(task({ owner: 'bob' }), caps)).toBeUndefined();
    expect(await other.create(task({ owner: 'carol' }), caps)).toEqual({ reason: 'kept_full' });
    await sleep(500);
    expect(await other.create(task({ owner: 'carol' }), caps)).toBeUndefined();
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

  // The contract says an expired task does not exist, so it is not open either.
  it('does not count an expired task as open, in countOpen or against the caps', async () => {
    await store.create(task({ ttlMs: 300 }), { perOwner: 1, total: 1, keptPerOwner: 1_000, keptTotal: 10_000 });
    await sleep(400);
    expect(await store.countOpen('alice')).toBe(0);
    expect(await store.countOpen()).toBe(0);
    expect(
      await other.create(task(), { perOwner: 1, total: 1, keptPerOwner: 1_000, keptTotal: 10_000 }),
    ).toBeUndefined();
  });

  it('pages an owner newest first (createdAt, then id) with cursors across three pages', async () => {
    const base = Date.now();
    const records = [0, 1, 2, 3, 4, 5, 6].map((i) =>
      // Two pairs share a creation time: the larger id comes first.
      task({ id: `task-${i}`, createdAt: base - [60, 50, 50, 40, 30, 30, 20][i] }),
    );
    for (const r of records) await store.create(r, roomy);
    await store.create(task({ owner: 'bob', createdAt: base - 45 }), roomy);
    const expected = [records[6], records[5], records[4], records[3], records[2], records[1], records[0]];

    const one = await store.list('alice', undefined, 3);
    expect(one.tasks).toEqual(expected.slice(0, 3));
    expect(one.next).toBe(encodeTaskCursor(records[4]));
    const two = await other.list('alice', one.next, 3);
    expect(two.tasks).toEqual(expected.slice(3, 6));
    const three = await store.list('alice', two.next, 3);
    expect(three).toEqual({ tasks: expected.slice(6) });
    // Exactly a page left: no next page.
    expect((await store.list('alice', one.next, 4)).next).toBeUndefined();
  });

  it('fills a page past expired tasks when more live ones exist', async () => {
    const base = Date.now();
    for (let i = 0; i < 6; i++)
      await store.create(task({ id: `t${i}`, createdAt: base - 100 + i, ttlMs: i % 2 ? 300 : 60_000 }), roomy);
    await sleep(400);
    const page = await store.list('alice', undefined, 2);
    expect(page.tasks.map((t) => t.id)).toEqual(['t4', 't2']);
    expect(page.next).toBeDefined();
    expect(await store.list('alice', page.next, 2)).toEqual({ tasks: [expect.objectContaining({ id: 't0' })] });
  });

  it('ends a page short, with a cursor, rather than read without bound past expired tasks', async () => {
    const base = Date.now();
    await store.create(task({ id: 'live-a', createdAt: base - 1_000 }), roomy);
    await store.create(task({ id: 'live-b', createdAt: base - 999 }), roomy);
    for (let i = 0; i < 40; i++)
      await store.create(task({ id: `gone-${i}`, createdAt: base - 500 + i, ttlMs: 800 }), roomy);
    await sleep(500);
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await other.list('alice', cursor, 2);
      pages.push(page.tasks.map((t) => t.id));
      cursor = page.next;
    } while (cursor && pages.length < 50);
    expect(pages.flat()).toEqual(['live-b', 'live-a']);
    // Redis reads at most 8 rounds of 3 records a page: the first page ends short of the live tasks.
    if (name === 'RedisTaskStore') expect(pages[0]).toEqual([]);
  });

  it('rejects a malformed cursor with -32602', async () => {
    await store.create(task(), roomy);
    for (const cursor of ['not a cursor!', Buffer.from('{"a":1}').toString('base64url'), '']) {
      const listing = store.list('alice', cursor, 10);
      await expect(listing).rejects.toBeInstanceOf(InvalidParamsError);
      await expect(listing).rejects.toMatchObject({ code: -32602 });
    }
  });

  it("lists only the owner's tasks", async () => {
    const mine = task({ owner: 'bob' });
    await store.create(task(), roomy);
    await store.create(mine, roomy);
    expect(await other.list('bob', undefined, 10)).toEqual({ tasks: [mine] });
    expect((await other.list('alice', undefined, 10)).tasks.map((t) => t.owner)).toEqual(['alice']);
    expect(await store.list('carol', undefined, 10)).toEqual({ tasks: [] });
  });
});

describe('RedisTaskStore (Redis keys)', () => {
  it('keeps every key in the {tasks} slot and the record until createdAt + ttlMs, across updates', async () => {
    const p = `${prefix}keys:`;
    const store = new RedisTaskStore(redis, p);
    const record = task({ createdAt: Date.now() - 10_000, ttlMs: 70_000 });
    await store.create(record, roomy);
    await store.update(record.id, () => ({ status: 'completed', result: { content: [], structuredContent: {} } }));
    const keys = await redis.keys(`${p}*`);
    expect(keys.sort()).toEqual([
      `${p}{tasks}:kept`,
      `${p}{tasks}:kept:alice`,
      `${p}{tasks}:owner:alice`,
      `${p}{tasks}:task:${record.id}`,
    ]);
    for (const key of keys) expect(await redis.pttl(key)).toBeLessThanOrEqual(60_000);
    const ttl = await redis.pttl(`${p}{tasks}:task:${record.id}`);
    expect(ttl).toBeGreaterThan(55_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    expect(await redis.hget(`${p}{tasks}:task:${record.id}`, 'v')).toBe('2');
    expect((await store.get(record.id))!.result).toEqual({ content: [], structuredContent: {} });
  });
});

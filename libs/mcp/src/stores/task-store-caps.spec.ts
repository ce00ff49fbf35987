import { InvalidParamsError } from '../errors/mcp.error';
import { encodeTaskCursor } from './task-record.util';
import { McpTaskStore } from './task.store';
import { roomy, sleep, task, taskStoreImplementations } from './task-store.fixture';

const { implementations, open, close } = taskStoreImplementations();
beforeAll(open);
afterAll(close);

/** The task store contract, caps and listing: what a caller can make the store hold, and how it pages. */
describe.each(implementations)('%s (task store contract: caps and listing)', (name, make) => {
  let store: McpTaskStore;
  let other: McpTaskStore;
  beforeEach(() => ({ store, other } = make()));

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

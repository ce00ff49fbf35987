import { McpTaskBytesRefusedError, McpTaskStore, TASK_OPEN_RESERVE_BYTES, taskWeight } from './task.store';
import { roomy, sleep, task, taskStoreImplementations } from './task-store.fixture';

const { implementations, open, close } = taskStoreImplementations();
beforeAll(open);
afterAll(close);

/** An open task of about `kib` KiB of arguments, and its weight against the byte caps. */
const heavy = (kib: number, over = {}) => {
  const record = task({ arguments: { blob: 'x'.repeat(kib * 1024) }, ...over });
  return { record, weight: taskWeight(Buffer.byteLength(JSON.stringify(record)), true) };
};

/**
 * The task store contract, bytes: what kept tasks weigh (their JSON, a fixed share for what the store keeps beside
 * them, and while open a reserve for their last small changes) is bounded per owner and for the deployment, at
 * creation and for every change that makes a task heavier; expired tasks give their bytes back.
 */
describe.each(implementations)('%s (task store contract: bytes)', (name, make) => {
  let store: McpTaskStore;
  let other: McpTaskStore;
  beforeEach(() => ({ store, other } = make()));

  it('refuses a creation past the owner’s bytes (saying when its oldest expires) and past the deployment’s', async () => {
    const now = Date.now();
    const { record: first, weight } = heavy(40, { createdAt: now, ttlMs: 2_000 });
    // Room for two such tasks and a small one per owner, and for three and a small one in the deployment.
    const caps = { ...roomy, bytesPerOwner: 2 * weight + 12_000, bytesTotal: 3 * weight + 5_000 };
    expect(await store.create(first, caps)).toBeUndefined();
    expect(await other.create(heavy(40).record, caps)).toBeUndefined();
    expect(await store.create(heavy(40).record, caps)).toEqual({ reason: 'owner_bytes_full', retryAt: now + 2_000 });
    // A small task of the same owner still fits; another owner has bytes of its own, up to the deployment's.
    expect(await store.create(task(), caps)).toBeUndefined();
    expect(await store.create(heavy(40, { owner: 'bob' }).record, caps)).toEqual({ reason: 'bytes_full' });
    // Long enough that a loaded machine does not expire it before the refusals above (400 ms did, once).
    await sleep(Math.max(0, now + 2_100 - Date.now()));
    // The expired task gave its bytes back to its owner and to the deployment.
    expect(await other.create(heavy(40, { owner: 'bob' }).record, caps)).toBeUndefined();
    expect(await store.create(heavy(20).record, caps)).toBeUndefined();
  });

  it('refuses a change that makes a task heavier past either cap, and writes nothing', async () => {
    const { record, weight } = heavy(10);
    const caps = { bytesPerOwner: weight + 5_000, bytesTotal: 10 * weight };
    expect(await store.create(record, { ...roomy, ...caps })).toBeUndefined();
    const answer = (n: number) => () => ({ answers: { a: { text: 'y'.repeat(n) } } });
    await expect(other.update(record.id, answer(8_000), caps)).rejects.toEqual(
      new McpTaskBytesRefusedError('owner_bytes_full'),
    );
    expect((await store.get(record.id))?.answers).toEqual({});
    await expect(
      store.update(record.id, answer(8_000), { bytesPerOwner: 10 * weight, bytesTotal: weight + 5_000 }),
    ).rejects.toMatchObject({ reason: 'bytes_full' });
    // Within both it is written; and without caps a change is written whatever it weighs (but still counted).
    expect((await store.update(record.id, answer(4_000), caps))?.answers).toEqual({ a: { text: 'y'.repeat(4_000) } });
    expect(await other.update(record.id, answer(20_000))).toMatchObject({
      answers: { a: { text: 'y'.repeat(20_000) } },
    });
    expect(await store.create(task(), { ...roomy, bytesPerOwner: weight + 5_000, bytesTotal: 1e9 })).toMatchObject({
      reason: 'owner_bytes_full',
    });
  });

  it('always has room for an open task’s end: its reserve covers a final error, and a final task is lighter', async () => {
    const { record, weight } = heavy(10);
    const caps = { bytesPerOwner: weight, bytesTotal: weight };
    expect(await store.create(record, { ...roomy, ...caps })).toBeUndefined();
    const error = { code: -32603, message: 'm'.repeat(1_024), data: { d: 'd'.repeat(4_000) } };
    expect(await other.update(record.id, () => ({ status: 'failed', error }), caps)).toMatchObject({
      status: 'failed',
    });
    // Final: the reserve was given back, so the owner has that much room again.
    const small = task({ arguments: {} });
    const smallWeight = taskWeight(Buffer.byteLength(JSON.stringify(small)), true);
    expect(smallWeight).toBeLessThan(TASK_OPEN_RESERVE_BYTES * 2);
    expect(
      await store.create(small, { ...roomy, bytesPerOwner: weight + smallWeight - 1_000, bytesTotal: 1e9 }),
    ).toBeUndefined();
  });
});

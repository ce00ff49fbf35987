import { InProcessTaskQueue } from './in-process-task.queue';

const tick = () => new Promise((r) => setImmediate(r));

describe('the in-process task queue', () => {
  it('runs tasks in arrival order, at most `concurrency` at once, after the caller’s turn', async () => {
    const queue = new InProcessTaskQueue();
    const started: string[] = [];
    const release: (() => void)[] = [];
    queue.work(
      (id) =>
        new Promise<void>((resolve) => {
          started.push(id);
          release.push(resolve);
        }),
      2,
    );
    for (const id of ['a', 'b', 'c']) await queue.enqueue(id);
    expect(started).toEqual([]);
    await tick();
    expect(started).toEqual(['a', 'b']);
    release.shift()!();
    await tick();
    await tick();
    expect(started).toEqual(['a', 'b', 'c']);
    release.forEach((r) => r());
    await queue.close(1000);
  });

  it('stops taking tasks on close and waits for the runs under way, up to the grace period', async () => {
    const queue = new InProcessTaskQueue();
    const started: string[] = [];
    queue.work(async (id) => void started.push(id), 1);
    await queue.close(10);
    await queue.enqueue('late');
    await tick();
    expect(started).toEqual([]);
    expect(queue.durable).toBe(false);
  });

  it('takes a task put back with { laterMs } again after that long, letting others run meanwhile', async () => {
    const queue = new InProcessTaskQueue();
    const runs: string[] = [];
    queue.work(async (id) => {
      runs.push(id);
      return id === 'a' && runs.filter((r) => r === 'a').length === 1 ? { laterMs: 30 } : undefined;
    }, 1);
    await queue.enqueue('a');
    await queue.enqueue('b');
    await new Promise((r) => setTimeout(r, 10));
    expect(runs).toEqual(['a', 'b']);
    await new Promise((r) => setTimeout(r, 50));
    expect(runs).toEqual(['a', 'b', 'a']);
    await queue.close(10);
  });
});

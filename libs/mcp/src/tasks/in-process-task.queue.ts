import { McpTaskQueue, McpTaskRun } from './task.queue';

/**
 * The embedded queue: tasks run in this process, in arrival order, `concurrency` at a time. Nothing survives a
 * restart (the in-memory task store does not either). The caps on open tasks bound how much can wait here.
 */
export class InProcessTaskQueue implements McpTaskQueue {
  readonly durable = false;
  private readonly waiting: { id: string; attempt: number }[] = [];
  private running = 0;
  private readonly runs = new Set<Promise<void>>();
  private runner: McpTaskRun | undefined;
  private readonly later = new Set<NodeJS.Timeout>();
  private concurrency = 1;
  private closed = false;

  async enqueue(taskId: string): Promise<void> {
    this.waiting.push({ id: taskId, attempt: 1 });
    // Not in the caller's turn: the request answers with the task handle first.
    setImmediate(() => this.drain());
  }

  work(run: McpTaskRun, concurrency: number): void {
    this.runner = run;
    this.concurrency = concurrency;
    setImmediate(() => this.drain());
  }

  async close(graceMs: number): Promise<void> {
    this.closed = true;
    for (const timer of this.later) clearTimeout(timer);
    await Promise.race([Promise.allSettled([...this.runs]), new Promise((r) => setTimeout(r, graceMs).unref())]);
  }

  private drain(): void {
    while (!this.closed && this.runner && this.running < this.concurrency && this.waiting.length) {
      const { id, attempt } = this.waiting.shift()!;
      this.running++;
      const run = this.runner(id, attempt)
        .then((outcome) => outcome && this.requeue(id, attempt + 1, outcome.laterMs))
        .catch(() => undefined) // the runner records its own failures on the task
        .finally(() => {
          this.running--;
          this.runs.delete(run);
          this.drain();
        });
      this.runs.add(run);
    }
  }

  /** Back in line after `ms` (its caller had no run place free); `attempt` counts the times it was taken. */
  private requeue(id: string, attempt: number, ms: number): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.later.delete(timer);
      this.waiting.push({ id, attempt });
      this.drain();
    }, ms);
    timer.unref();
    this.later.add(timer);
  }
}

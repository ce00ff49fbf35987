/**
 * Where tasks wait for a worker. In process by default (the embedded `npm start`: a task runs on the replica that
 * created it); BullMQ on Redis with `MCP_STORE=redis`, where any replica with `tasks.worker` on takes the next one,
 * and a task whose worker died is handed to another. The queue carries task ids only: the task itself is in the task
 * store.
 */
export interface McpTaskQueue {
  /**
   * True when tasks outlive this process (BullMQ): a run left unfinished at shutdown is handed to another worker.
   * False (in process): such a run is stopped and its task fails.
   */
  readonly durable: boolean;
  /** Queues a task; resolves once it is durably queued. */
  enqueue(taskId: string): Promise<void>;
  /**
   * Makes this replica a worker: `run` is called for each task taken, at most `concurrency` at once, and its promise
   * settles when the run is over, or with `{ laterMs }` when the task must wait (its caller runs as many tasks as it
   * may): the queue takes it again after that long. `attempt` counts from 1 and grows each time the task is taken.
   */
  work(run: McpTaskRun, concurrency: number, on?: McpTaskQueueEvents): void;
  /** Stops taking tasks and waits up to `graceMs` for the runs under way; a durable queue then lets go of the rest. */
  close(graceMs: number): Promise<void>;
  /** Readiness probe; optional. */
  ping?(): Promise<void>;
}

/** A run of task `taskId`: done, or `{ laterMs }` to be taken again after that long (see McpTaskQueue.work). */
export type McpTaskRun = (taskId: string, attempt: number) => Promise<void | { laterMs: number }>;

/** What a durable queue tells the worker besides the tasks to run. */
export interface McpTaskQueueEvents {
  /** A task the queue gave up on (handed on too often): it must not stay open. */
  abandoned?(taskId: string, reason: string): Promise<void>;
  /** Tasks running here whose locks were lost (a long Redis outage): another worker may take them over. */
  lost?(taskIds: readonly string[]): void;
}

/** Injection token of the {@link McpTaskQueue}. */
export const MCP_TASK_QUEUE = Symbol('MCP_TASK_QUEUE');

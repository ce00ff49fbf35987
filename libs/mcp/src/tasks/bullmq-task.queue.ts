import { Logger } from '@nestjs/common';
import type { Job, Queue, Worker } from 'bullmq';
import { RedisClient, isCluster } from '../stores/redis-client.factory';
import { closeRedisClient } from '../stores/redis-close';
import { McpTaskQueue, McpTaskQueueEvents, McpTaskRun } from './task.queue';

const QUEUE = 'tasks';
const ENQUEUE_TIMEOUT_MS = 2_000;
/** The most a shutdown waits for BullMQ to close a worker or queue (Redis may not answer). */
const CLOSE_MS = 1_000;
const within = <T>(ms: number, value: T) => new Promise<T>((r) => setTimeout(() => r(value), ms).unref());

/** How a worker that stops answering is noticed: its lock lapses, and a stalled-job check hands its tasks on. */
export interface BullmqTaskQueueTiming {
  /** A running task's lock, renewed every half of it while its worker lives (`MCP_TASK_LOCK_MS`, 30 s). */
  lockMs: number;
}

/**
 * The durable queue (`MCP_STORE=redis`): BullMQ on the deployment's Redis. A task is a job whose id is the task id
 * (queued once even if asked twice); any replica with the worker on takes the next one. A worker that dies mid-run
 * (SIGKILL, OOM, a lost node) stops renewing its job's lock, and BullMQ's stalled-job check gives the job to another
 * worker: the task runner then runs it again or fails it, by the tool's idempotency. Jobs leave Redis when they end:
 * the task store keeps what clients read.
 *
 * Its own connections (a copy of the shared one's settings): a worker blocks on its connection while it waits, and
 * BullMQ needs commands there to wait through a Redis outage rather than fail, so tasks resume when Redis is back.
 * All its keys carry the `{tasks}` hash tag, as the task store's do (one Cluster slot).
 */
export class BullmqTaskQueue implements McpTaskQueue {
  readonly durable = true;
  private readonly logger = new Logger('McpTasks');
  private queueOf: Queue | undefined;
  private worker: Worker | undefined;
  private readonly prefix: string;
  private readonly connections: RedisClient[] = [];

  /**
   * The queue on `redis`. BullMQ is loaded here, not at the top of the file: a server on the in-memory stores never
   * loads it (a shorter boot).
   */
  static async open(redis: RedisClient, keyPrefix: string, timing: BullmqTaskQueueTiming): Promise<BullmqTaskQueue> {
    return new BullmqTaskQueue(await import('bullmq'), redis, keyPrefix, timing);
  }

  private constructor(
    private readonly bullmq: typeof import('bullmq'),
    private readonly redis: RedisClient,
    keyPrefix: string,
    private readonly timing: BullmqTaskQueueTiming,
  ) {
    this.prefix = `${keyPrefix}{tasks}`;
  }

  /** Created on first use: an app without task tools opens no queue connection at all. */
  private get queue(): Queue {
    if (!this.queueOf) {
      this.queueOf = new this.bullmq.Queue(QUEUE, {
        connection: this.patient(),
        prefix: this.prefix,
        skipWaitingForReady: true,
      });
      this.queueOf.on('error', () => undefined); // the shared connection logs outages
    }
    return this.queueOf;
  }

  async enqueue(taskId: string): Promise<void> {
    // The queue's connection waits through outages; the request that creates the task must not.
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the task queue did not answer within 2 s')), ENQUEUE_TIMEOUT_MS);
    });
    try {
      await Promise.race([
        this.queue.add('run', { taskId }, { jobId: taskId, removeOnComplete: true, removeOnFail: true, attempts: 1 }),
        late,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  work(run: McpTaskRun, concurrency: number, on: McpTaskQueueEvents = {}): void {
    const processor = async (job: Job<{ taskId: string }>, token?: string) => {
      const outcome = await run(job.data.taskId, job.attemptsStarted);
      if (!outcome) return;
      // Back to the queue for a moment, the BullMQ way: delayed, then the processor says so.
      await job.moveToDelayed(Date.now() + outcome.laterMs, token);
      throw new this.bullmq.DelayedError();
    };
    const worker = new this.bullmq.Worker(QUEUE, processor, {
      connection: this.patient(),
      prefix: this.prefix,
      concurrency,
      lockDuration: this.timing.lockMs,
      stalledInterval: Math.max(500, Math.floor(this.timing.lockMs / 2)),
      // A stalled job is given back twice: a task runs at most three times, then fails (the runner fails
      // non-idempotent ones at their second start anyway).
      maxStalledCount: 2,
      removeOnComplete: { count: 0 },
      removeOnFail: { count: 0 },
    });
    worker.on('error', () => undefined);
    worker.on('failed', (job, error) => {
      const id = job?.data?.taskId;
      if (id && on.abandoned) void on.abandoned(id, error.message).catch(() => undefined);
    });
    // The job ids are the task ids (see enqueue).
    worker.on('lockRenewalFailed', (ids: string[]) => on.lost?.(ids));
    this.worker = worker;
  }

  /**
   * Stops taking jobs and waits for the runs here up to `graceMs`; then lets go of the rest without finishing them:
   * their locks lapse and other workers take them over (the path of a killed worker).
   */
  async close(graceMs = 0): Promise<void> {
    const worker = this.worker;
    if (worker) {
      const finished = worker.close().then(
        () => false,
        () => false,
      );
      const late = await Promise.race([finished, within(graceMs, true)]);
      if (late) this.logger.warn('shutdown: tasks still running are left to other workers');
      // Forced, and bounded: with Redis unreachable BullMQ's own close would wait for it.
      if (late) await Promise.race([worker.close(true).catch(() => undefined), within(CLOSE_MS, undefined)]);
    }
    if (this.queueOf) await Promise.race([this.queueOf.close().catch(() => undefined), within(CLOSE_MS, undefined)]);
    // BullMQ does not close connections it was given; each is closed within a second, reachable or not.
    await Promise.all(this.connections.map((c) => closeRedisClient(c)));
  }

  /**
   * The queue's own connection answers. It opens the queue when nothing has yet (a request-only replica before its
   * first task): readiness must not wait for traffic that only a ready replica receives.
   */
  async ping(): Promise<void> {
    void this.queue; // opens the queue, and with it a connection, on first use
    await this.connections[0].ping();
  }

  /** A copy of the shared connection that waits through outages (BullMQ's requirement for its connections). */
  private patient(): RedisClient {
    const options = { maxRetriesPerRequest: null, commandTimeout: undefined, enableAutoPipelining: false };
    const redis = this.redis;
    const copy = isCluster(redis)
      ? redis.duplicate(undefined, { redisOptions: { ...redis.options.redisOptions, ...options } })
      : redis.duplicate(options);
    copy.on('error', () => undefined); // the shared connection logs outages
    this.connections.push(copy);
    return copy;
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { McpTaskFollowers } from './task-followers';
import { McpTaskObserver } from './task-observer';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { McpError, InvalidParamsError } from '../errors/mcp.error';
import { ErrorCode } from '../wire/json-rpc';
import { RequestContext } from '../pipeline/request-context';
import { McpSession } from '../sessions/mcp-session';
import { ToolEntry } from '../registry/registry-entries';
import {
  MCP_TASK_STORE,
  McpTaskBytesRefusedError,
  McpTaskRecord,
  McpTaskStore,
  TERMINAL_TASK_STATUSES,
} from '../stores/task.store';
import { taskByteCaps } from './tasks-options.resolver';
import { bytesFull, capReached, notFound, taskIdOf, tooLarge, unavailable } from './task-errors';
import { MCP_TASK_QUEUE, McpTaskQueue } from './task.queue';
import { McpTaskEvents } from './task-events';
import { McpTaskWatch } from './task-watch';
import { McpAdmission } from '../admission/mcp-admission.service';
import { failClosed } from '../admission/fail-closed';
import { newTaskRecord, taskOwnerOf } from './task-record.builder';

/**
 * The request side of tasks, for both protocol eras: creating a task for a call (written to the store before the
 * handle is returned, then queued), and finding, answering and cancelling one for the caller who created it. Any
 * other caller is told the task does not exist, exactly as for an id never issued. The wire shapes of each era are
 * the handlers' business; this service deals in records.
 */
@Injectable()
export class McpTasks {
  constructor(
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
    @Inject(MCP_TASK_STORE) private readonly store: McpTaskStore,
    @Inject(MCP_TASK_QUEUE) private readonly queue: McpTaskQueue,
    private readonly events: McpTaskEvents,
    private readonly followers: McpTaskFollowers,
    private readonly observer: McpTaskObserver,
    private readonly watch: McpTaskWatch,
    private readonly admission: McpAdmission,
  ) {}

  /**
   * Creates the task of a `tools/call` and queues it: `answers` are those its questions got before it (asked in the
   * request, which counted against the caller's limits already); without them the creation is what counts (the
   * tool's `rateLimit` included). `requestedTtlMs` is a 2025 client's `task.ttl`. Refused with `-32003` past the caps
   * on open tasks (per caller, and the deployment's queue depth), `-32006` when the store or queue cannot be reached.
   */
  async create(
    request: RequestContext,
    tool: ToolEntry,
    args: Record<string, unknown>,
    answers: Record<string, unknown> | undefined,
    requestedTtlMs?: number,
  ): Promise<McpTaskRecord> {
    if (answers === undefined)
      return request.admission.call(request.peer, tool.name, tool.rateLimit, () =>
        this.create(request, tool, args, {}, requestedTtlMs),
      );
    const t = this.options.tasks;
    const record = newTaskRecord(request, tool, args, answers, t, requestedTtlMs);
    const bytes = Buffer.byteLength(JSON.stringify(record));
    if (bytes > t.maxBytes) throw tooLarge(`its arguments and caller take ${bytes} bytes`, t.maxBytes);
    const refused = await this.reach(() =>
      this.store.create(record, {
        perOwner: t.maxOpenPerSubject,
        total: t.maxOpen,
        keptPerOwner: t.maxKeptPerSubject,
        keptTotal: t.maxKept,
        ...taskByteCaps(t),
      }),
    );
    if (refused) throw capReached(refused, t);
    await this.enqueue(record);
    // A 2025-11-25 session hears of its task on its standalone stream; a 2026-07-28 peer has none (it listens).
    if (request.peer instanceof McpSession && request.peer.era.tasksUtility)
      this.followers.tellSession(record, request.peer);
    this.observer.taskCreated(tool.name);
    return record;
  }

  /** Queues a stored task; one the queue does not take is failed (it must not wait for ever) and refused `-32006`. */
  private async enqueue(record: McpTaskRecord): Promise<void> {
    try {
      await this.queue.enqueue(record.id);
    } catch {
      await this.store
        .update(record.id, () => ({
          status: 'failed',
          error: { code: ErrorCode.UpstreamUnavailable, message: 'The task queue did not accept the task' },
        }))
        .catch(() => undefined);
      throw unavailable('the task queue did not answer');
    }
  }

  /**
   * The caller's task `id`, or `-32602` when it does not exist, has expired or is someone else's. A task still open
   * well past its deadline (every worker that could run it is gone) is failed here, so none stays `working` for ever.
   */
  async find(request: RequestContext, id: unknown): Promise<McpTaskRecord> {
    const taskId = taskIdOf(id);
    const owner = taskOwnerOf(request);
    const record = await this.reach(() => this.store.get(taskId, owner));
    if (!record || record.owner !== owner) throw notFound();
    if (TERMINAL_TASK_STATUSES.has(record.status) || Date.now() < record.deadline + this.graceMs()) return record;
    const failed = await this.reach(() =>
      this.store.update(record.id, () => ({
        status: 'failed',
        error: { code: ErrorCode.Timeout, message: 'Timeout: no worker finished the task within its time limit' },
        statusMessage: 'No worker finished the task within its time limit',
      })),
    );
    await this.events.changed(record.id);
    return failed ?? record;
  }

  /** How long past its deadline a run may still record its outcome (a lapsed lock, a store retry). */
  private graceMs(): number {
    return 2 * this.options.tasks.lockMs + 10_000;
  }

  /**
   * Answers questions the task is waiting on (`tasks/update`, and the answers a 2025 `tasks/result` stream got):
   * only keys it asks now are taken; others are ignored, as the extension says. The task goes back to `working`
   * once nothing is left open.
   */
  async answer(request: RequestContext, id: unknown, responses: Record<string, unknown>): Promise<McpTaskRecord> {
    const record = await this.find(request, id);
    const updated = await this.reach(() =>
      this.store.update(
        record.id,
        (task) => {
          const taken = Object.entries(responses).filter(
            ([key, value]) => Object.hasOwn(task.inputRequests, key) && typeof value === 'object' && value !== null,
          );
          if (!taken.length) return undefined;
          const answers = { ...task.answers, ...Object.fromEntries(taken) };
          const bytes = Buffer.byteLength(JSON.stringify({ ...task, answers, result: undefined }));
          if (bytes > this.options.tasks.maxBytes)
            throw tooLarge(`with these answers it would take ${bytes} bytes`, this.options.tasks.maxBytes);
          const inputRequests = { ...task.inputRequests };
          for (const [key] of taken) delete inputRequests[key];
          const open = Object.keys(inputRequests).length > 0;
          return {
            answers,
            inputRequests,
            status: open ? 'input_required' : 'working',
          };
        },
        taskByteCaps(this.options.tasks),
      ),
    );
    if (!updated) throw notFound();
    // The run waiting for these answers may be on another replica.
    if (Object.keys(updated.answers).length !== Object.keys(record.answers).length)
      await this.events.changed(record.id);
    return updated;
  }

  /**
   * Cancels the task: `cancelled` at once in the store (a final state no later change can undo), and the run, on
   * whichever replica holds it, is stopped when it hears of the change. Resolves with the task as it is afterwards (a
   * task already final is returned unchanged).
   */
  async cancel(request: RequestContext, id: unknown): Promise<{ before: McpTaskRecord; after: McpTaskRecord }> {
    const before = await this.find(request, id);
    if (TERMINAL_TASK_STATUSES.has(before.status)) return { before, after: before };
    const after = await this.reach(() =>
      this.store.update(before.id, () => ({
        status: 'cancelled',
        statusMessage: 'The task was cancelled by request.',
        cancelRequested: true,
      })),
    );
    if (!after) throw notFound();
    await this.events.changed(before.id);
    return { before, after };
  }

  /** One page of the caller's tasks, newest first (2025 `tasks/list`). */
  list(request: RequestContext, cursor: unknown): Promise<{ tasks: McpTaskRecord[]; next?: string }> {
    if (cursor !== undefined && typeof cursor !== 'string')
      throw new InvalidParamsError('Invalid params: cursor must be a string', { field: 'cursor', reason: 'type' });
    return this.reach(() => this.store.list(taskOwnerOf(request), cursor, this.options.pageSize));
  }

  /**
   * Waits until the caller's task is final or `until` says stop (a 2025 `tasks/result`, and its questions meanwhile),
   * called with the task after each change. The wait holds one of the caller's stream places (`limits.
   * maxStreamsPerSubject`, deployment-wide with a shared store): a caller cannot pile up blocked requests. Ends early,
   * with undefined, when `signal` aborts.
   */
  async settle(
    request: RequestContext,
    id: unknown,
    until: (task: McpTaskRecord) => boolean,
  ): Promise<McpTaskRecord | undefined> {
    const first = await this.find(request, id);
    if (until(first)) return first;
    const release = await this.admission.stream(request.peer.transport, request.principal);
    try {
      return await new Promise<McpTaskRecord | undefined>((resolve, reject) => {
        const finish = (error: unknown, task?: McpTaskRecord) => {
          stop();
          clearTimeout(overdue);
          request.signal.removeEventListener('abort', aborted);
          if (error) reject(error);
          else resolve(task);
        };
        const aborted = () => finish(undefined);
        const stop = this.watch.watch(first.id, (task) => {
          if (!task) finish(notFound());
          else if (until(task)) finish(undefined, task);
        });
        // A task nobody finishes changes no more: past its deadline, find() fails it (and answers it as it is).
        const overdue = setTimeout(
          () =>
            void this.find(request, first.id).then(
              (task) => until(task) && finish(undefined, task),
              (error: unknown) => finish(error),
            ),
          Math.min(2 ** 31 - 1, Math.max(0, first.deadline + this.graceMs() - Date.now() + 100)),
        );
        overdue.unref();
        request.signal.addEventListener('abort', aborted, { once: true });
        // Aborted while the place was being taken: a listener added now would never fire.
        if (request.signal.aborted) aborted();
      });
    } finally {
      release();
    }
  }

  /**
   * Follows the caller's tasks among `ids` for a 2026-07-28 listen stream (see {@link McpTaskFollowers.follow}); ids
   * that are not the caller's tasks are left out.
   */
  async follow(
    request: RequestContext,
    ids: readonly string[],
    send: (task: McpTaskRecord) => void,
  ): Promise<{ followed: McpTaskRecord[]; stop: () => void }> {
    const found = await Promise.all(ids.map((id) => this.find(request, id).catch(() => undefined)));
    return this.followers.follow(
      found.filter((t): t is McpTaskRecord => t !== undefined),
      send,
    );
  }

  /** A store or queue that cannot be reached is `-32006` (HTTP 503), never a stack trace. */
  private reach<T>(work: () => Promise<T>): Promise<T> {
    return failClosed(work, (error) => {
      if (error instanceof McpError) return error;
      if (error instanceof McpTaskBytesRefusedError) return bytesFull(error.reason, this.options.tasks);
      return unavailable('the task store did not answer');
    });
  }
}

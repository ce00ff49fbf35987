import { Inject, Injectable } from '@nestjs/common';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { MCP_LIMIT_STORE, McpLimitStore } from '../stores/limit.store';
import { MCP_TASK_STORE, McpTaskStore, TERMINAL_TASK_STATUSES } from '../stores/task.store';

/** How soon a task whose caller has no run place free is taken again (doubling each time, plus up to 1 s). */
const LATER_MS = 1_000;
const MAX_LATER_MS = 30_000;

/**
 * The wait before the `attempt`-th take of a task put back: doubling up to half a minute, jittered so a caller's
 * waiting tasks do not all come back at once.
 * @internal
 */
export const laterMs = (attempt: number): number =>
  Math.min(MAX_LATER_MS, LATER_MS * 2 ** Math.min(attempt - 1, 5)) + Math.floor(Math.random() * LATER_MS);

/** Gives a run's place back; calling it again does nothing. */
export type McpTaskRunRelease = () => void;

/**
 * Runs of one caller at once, for the whole deployment (`tasks.maxRunningPerSubject`): without it one caller's open
 * tasks (up to `maxOpenPerSubject`, each possibly waiting half an hour for an answer) could take every worker's every
 * place, and everyone else's tasks would wait. A place is a concurrency slot in the limit store (in Redis with the
 * shared store, renewed by the replica running the task, so a dead worker's places lapse); a task whose caller has
 * none free goes back to the queue for a moment.
 * @internal
 */
@Injectable()
export class McpTaskRunGate {
  constructor(
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
    @Inject(MCP_TASK_STORE) private readonly tasks: McpTaskStore,
    @Inject(MCP_LIMIT_STORE) private readonly limits: McpLimitStore,
  ) {}

  /**
   * A place for task `id`'s run, or undefined when its caller has every place taken (run it later). A task that is
   * gone or final, or a store that cannot be asked, gets a place that costs nothing: the run itself finds out.
   */
  async enter(id: string): Promise<McpTaskRunRelease | undefined> {
    const head = await this.tasks.head(id).catch(() => undefined);
    // Gone or final (cancelled while it waited): the run finds nothing to do, and the job leaves the queue.
    if (!head || TERMINAL_TASK_STATUSES.has(head.status)) return () => undefined;
    const key = `task-runs:${head.owner}`;
    let taken: boolean;
    try {
      taken = await this.limits.acquire(key, this.options.tasks.maxRunningPerSubject);
    } catch {
      return () => undefined;
    }
    if (!taken) return undefined;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      void this.limits.release(key).catch(() => undefined);
    };
  }
}

import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { McpCancelledError, McpError } from '../errors/mcp.error';
import { ErrorCode } from '../wire/json-rpc';
import { McpRegistry } from '../registry/mcp.registry';
import { ToolEntry } from '../registry/registry-entries';
import { RequestStateCodec } from '../pipeline/request-state.codec';
import {
  MCP_TASK_STORE,
  McpTaskBytesRefusedError,
  McpTaskPatch,
  McpTaskRecord,
  McpTaskStore,
  TERMINAL_TASK_STATUSES,
} from '../stores/task.store';
import { MCP_TASK_QUEUE, McpTaskQueue } from './task.queue';
import { McpTaskEvents } from './task-events';
import { McpTaskWatch } from './task-watch';
import { McpTaskRunGate, laterMs } from './task-run-gate';
import { failed, failedWith, untilStopped } from './task-run.util';
import { TaskToolDeps, invokeTaskTool } from './task-tool.invoker';
import { runOutcome } from './task-run-outcome';
import { McpTaskObserver } from './task-observer';
import { bytesFull } from './task-errors';
import { taskByteCaps } from './tasks-options.resolver';
import { context } from '@opentelemetry/api';

/** How often a store call is tried again while the store is unreachable. */
const PERSIST_RETRY_MS = 1_000;
/** How often a run reads its task again for a cancellation whose notice was lost. */
const CANCEL_RECHECK_MS = 2_000;

/** A run on this replica. */
interface Run {
  controller: AbortController;
  /** Its lock was lost: another worker decides the outcome, this run records nothing. */
  handedOn: boolean;
  done: Promise<void | { laterMs: number }>;
}

/**
 * The worker side of tasks: takes a task from the queue and runs its tool through the same invocation stage as a
 * call in a request (see invokeTaskTool), as the caller who created it, then records the outcome.
 * A run that was cut short before (its worker died) runs again only when the tool is idempotent; otherwise the task
 * fails with a message saying so, so side effects never happen twice unasked. A cancellation written by any replica
 * reaches the run here through the change notices and aborts its signal.
 */
@Injectable()
export class McpTaskRunner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('McpTasks');
  private readonly running = new Map<string, Run>();

  constructor(
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
    @Inject(MCP_TASK_STORE) private readonly store: McpTaskStore,
    @Inject(MCP_TASK_QUEUE) private readonly queue: McpTaskQueue,
    private readonly events: McpTaskEvents,
    private readonly registry: McpRegistry,
    private readonly states: RequestStateCodec,
    private readonly observer: McpTaskObserver,
    private readonly watch: McpTaskWatch,
    private readonly gate: McpTaskRunGate,
  ) {}

  /** After discovery: a replica becomes a worker only in an app that has task tools (no queue connection otherwise). */
  onApplicationBootstrap(): void {
    const hasTasks = [...this.registry.tools.values()].some((t) => t.task);
    if (this.options.tasks.worker && hasTasks)
      this.queue.work((id, attempt) => this.runTask(id, attempt), this.options.tasks.concurrency, {
        abandoned: (id, reason) => this.abandon(id, reason),
        lost: (ids) => this.handOn(ids),
      });
  }

  /**
   * Stops taking tasks and gives the runs here the shutdown grace period to finish. After it, a durable queue hands
   * the rest to other workers (their tasks go on elsewhere); in process they are stopped and their tasks fail, since
   * nothing else would ever run them.
   */
  async onModuleDestroy(): Promise<void> {
    await this.queue.close(this.options.limits.shutdownGraceMs);
    if (this.queue.durable || this.running.size === 0) return;
    const runs = [...this.running.values()];
    for (const { controller } of runs)
      controller.abort(new McpError(ErrorCode.UpstreamUnavailable, 'The server shut down before the task finished'));
    await Promise.race([Promise.allSettled(runs.map((r) => r.done)), new Promise((r) => setTimeout(r, 2_000))]);
  }

  /**
   * Runs task `id` once; resolves when its outcome is recorded (or there was nothing to run), or with `{ laterMs }`
   * when its caller already runs as many tasks as it may (the queue takes it again after that long).
   */
  runTask(id: string, attempt = 1): Promise<void | { laterMs: number }> {
    // The queue handed back a task this replica still runs (its lock lapsed during a Redis outage): one run is enough.
    // Registered before the first await, so two hand-overs at once still make one run. But a run that was handed on
    // (the queue said its lock was lost) records nothing: once it has stopped, this activation, which holds the job
    // now, runs the task anew. Without that the job would end with the handed-on run and leave its task `working`.
    const current = this.running.get(id);
    if (current) return current.done.then(() => (current.handedOn ? this.runTask(id, attempt) : undefined));
    const run: Run = { controller: new AbortController(), done: Promise.resolve(), handedOn: false };
    run.done = this.gated(id, run, attempt).finally(() => this.running.delete(id));
    this.running.set(id, run);
    return run.done;
  }

  private async gated(id: string, run: Run, attempt: number): Promise<void | { laterMs: number }> {
    const release = await this.gate.enter(id);
    if (!release) return { laterMs: laterMs(attempt) };
    try {
      await this.runOnce(id, run);
    } finally {
      release();
    }
  }

  private async runOnce(id: string, run: Run): Promise<void> {
    const tool = (name: string) => this.registry.tools.get(name);
    // Through store outages: a task taken from the queue is started once Redis answers again.
    const started = await this.retrying(id, () => this.store.update(id, (task) => this.start(task, tool(task.tool))));
    if (!started || TERMINAL_TASK_STATUSES.has(started.status)) {
      if (started) await this.events.changed(id);
      return;
    }
    const entry = tool(started.tool)!;
    await this.events.changed(id);
    if (started.attempts > 1)
      this.logger.warn(`task ${id} (${entry.name}): its run was cut short; running it again (idempotent tool)`);
    const { controller } = run;
    // A cancellation is heard through change notices, and read again every few seconds (a notice may be lost, or
    // come before the watch began).
    const check = () => void this.stopIfCancelled(id, controller);
    const stopWatching = this.events.watch(id, check);
    const recheck = setInterval(check, CANCEL_RECHECK_MS);
    recheck.unref();
    check();
    const observed = this.observer.runStarted(started, entry);
    let outcome = 'failed';
    try {
      // A stopped run (cancelled, handed on, shut down) ends here at once, whatever the tool is waiting on (an
      // answer, a downstream call, a timer that ignores its signal): its worker place and the caller's run place are
      // freed now, and whatever the tool returns later is dropped.
      const work = context.with(observed.ctx, () =>
        invokeTaskTool(this.toolDeps(), started, entry, controller, observed.downstreams),
      );
      const patch = await untilStopped(work, controller.signal);
      // `null`: the store answered but no longer has the task (emptied under the run): the outcome is `lost`.
      const write = async () => (await this.record(id, patch)) ?? null;
      const after = run.handedOn ? undefined : await this.retrying(id, write);
      outcome = await runOutcome(this.store, started, run.handedOn, after);
      await this.events.changed(id);
    } finally {
      // The run is over: whatever it left waiting (a question it raced against something else) stops now.
      if (!controller.signal.aborted) controller.abort(new Error('the run ended'));
      observed.end(outcome);
      stopWatching();
      clearInterval(recheck);
    }
  }

  /**
   * The queue lost these tasks' locks (Redis was out longer than `tasks.lockMs`): another worker may be running them
   * already, so the runs here stop and record nothing; the task's new run decides its outcome.
   */
  handOn(ids: readonly string[]): void {
    for (const id of ids) {
      const run = this.running.get(id);
      if (!run) continue;
      this.logger.warn(`task ${id}: its lock was lost; leaving it to the worker that takes it over`);
      run.handedOn = true;
      run.controller.abort(new McpError(ErrorCode.UpstreamUnavailable, 'The task was handed to another worker'));
    }
  }

  /** BullMQ gave up on a job (cut short too often): its task fails rather than stay open. */
  async abandon(id: string, reason: string): Promise<void> {
    this.logger.warn(`task ${id}: the queue gave up on it (${reason})`);
    const after = await this.store.update(id, () =>
      failed(
        ErrorCode.InternalError,
        'The task was cut short more than once (its workers stopped); it was not run again',
      ),
    );
    if (after) await this.events.changed(id);
  }

  /**
   * Records a run's outcome. A result that would take the caller's or the deployment's kept tasks past their bytes
   * is not kept: the task fails with that error instead (which its open reserve always has room for).
   */
  private async record(id: string, patch: McpTaskPatch): Promise<McpTaskRecord | undefined> {
    try {
      return await this.store.update(id, () => patch, taskByteCaps(this.options.tasks));
    } catch (error) {
      if (!(error instanceof McpTaskBytesRefusedError)) throw error;
      const refused = bytesFull(error.reason, this.options.tasks);
      return this.store.update(id, () =>
        failedWith({ code: refused.code, message: refused.message, data: refused.data }),
      );
    }
  }

  /** The patch that starts a run, or fails the task when it cannot run (again). */
  private start(task: McpTaskRecord, tool: ToolEntry | undefined): McpTaskPatch {
    if (!tool)
      return failed(ErrorCode.InternalError, `The tool "${task.tool}" of this task no longer exists on this server`);
    if (task.attempts > 0 && !tool.task?.idempotent)
      return failed(
        ErrorCode.InternalError,
        `The worker running this task stopped before it finished. "${tool.name}" is not idempotent, so it was not ` +
          'run again: check what the first run did before calling it again.',
      );
    if (Date.now() >= task.deadline)
      return failed(ErrorCode.Timeout, 'Timeout: the task did not finish within its time limit');
    return { attempts: task.attempts + 1 };
  }

  /** What the tool's invocation borrows from this runner (its own fields are private). */
  private toolDeps(): TaskToolDeps {
    return { options: this.options, store: this.store, events: this.events, watch: this.watch, states: this.states };
  }

  /**
   * A store call, tried again every second while the store cannot be reached, for as long as the task could still
   * matter (its longest possible life): an outcome is never lost to a Redis outage.
   */
  private async retrying<T>(id: string, work: () => Promise<T>): Promise<T | undefined> {
    const until = Date.now() + this.options.tasks.maxTtlMs;
    for (let warned = false; ;) {
      try {
        return await work();
      } catch (error) {
        if (Date.now() > until) return undefined;
        if (!warned)
          this.logger.warn(`task ${id}: the task store is unreachable (${(error as Error).message}); retrying`);
        warned = true;
        await new Promise((r) => setTimeout(r, PERSIST_RETRY_MS));
      }
    }
  }

  private async stopIfCancelled(id: string, controller: AbortController): Promise<void> {
    // The head only: a running task's record (arguments, answers) is never read just to look for a cancellation.
    const task = await this.store.head(id).catch(() => undefined);
    if (task?.status === 'cancelled') controller.abort(new McpCancelledError());
  }
}

import { CallQuestions, InputRequest } from '../pipeline/input-rounds';
import { McpTaskBytesRefusedError, McpTaskStore } from '../stores/task.store';
import { ResolvedTasksOptions } from '../options/tasks-options.interface';
import { taskByteCaps } from './tasks-options.resolver';
import { TimeoutError } from '../errors/mcp.error';
import { bytesFull, tooLarge } from './task-errors';
import { McpTaskEvents } from './task-events';
import { McpTaskWatch } from './task-watch';

const isAnswer = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Where a task run's questions (`ctx.elicit()`, `ctx.sample()`, `ctx.listRoots()`) go: into the task as
 * `inputRequests` (status `input_required`), answered with `tasks/update` (2026-07-28) or through `tasks/result`
 * (2025-11-25), on any replica. An answer the task already holds (asked before the task existed, or by a run cut
 * short) returns at once: keys are stable while the code path is.
 * @internal
 */
export class TaskInputs implements CallQuestions {
  private readonly counters = new Map<string, number>();

  constructor(
    private readonly taskId: string,
    private readonly answers: Readonly<Record<string, unknown>>,
    private readonly store: McpTaskStore,
    private readonly events: McpTaskEvents,
    private readonly watch: McpTaskWatch,
    private readonly signal: AbortSignal,
    private readonly timeoutMs: number,
    /** The task settings: a question past `maxBytes`, or past the caller's or deployment's bytes, is refused. */
    private readonly limits: ResolvedTasksOptions,
  ) {}

  nextKey(kind: string): string {
    const n = (this.counters.get(kind) ?? 0) + 1;
    this.counters.set(kind, n);
    return `${kind}_${n}`;
  }

  async ask(key: string, request: InputRequest): Promise<Record<string, unknown>> {
    const known = this.answers[key];
    if (isAnswer(known)) return known;
    const { maxBytes } = this.limits;
    const asked = await this.store
      .update(
        this.taskId,
        (task) => {
          if (isAnswer(task.answers[key])) return undefined;
          const inputRequests = { ...task.inputRequests, [key]: request };
          // Refused now, not held until the input timeout: a record past the bound could never take its answer.
          const bytes = Buffer.byteLength(JSON.stringify({ ...task, inputRequests, result: undefined }));
          if (bytes > maxBytes) throw tooLarge(`with the question "${key}" it would take ${bytes} bytes`, maxBytes);
          return {
            status: 'input_required',
            inputRequests,
            asked: task.asked.includes(key) ? task.asked : [...task.asked, key],
          };
        },
        taskByteCaps(this.limits),
      )
      .catch((error: unknown) => {
        throw error instanceof McpTaskBytesRefusedError ? bytesFull(error.reason, this.limits) : error;
      });
    const answer = asked?.answers[key];
    if (isAnswer(answer)) return answer;
    await this.events.changed(this.taskId);
    return this.answerOf(key);
  }

  /**
   * Waits for the answer to `key`, reading the task after each of its changes (one watch shared on this replica), for
   * at most `timeoutMs`: then the question is withdrawn from the task and fails in the tool with `-32004`.
   */
  private answerOf(key: string): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const unwatch = this.watch.watch(this.taskId, (task) => {
        const answer = task?.answers[key];
        if (!isAnswer(answer)) return;
        stop();
        resolve(answer);
      });
      const timer = setTimeout(
        () => {
          stop();
          // An answer that came in as time ran out still counts.
          void this.withdraw(key).then((late) =>
            late
              ? resolve(late)
              : reject(new TimeoutError(`Timeout: no answer to the task's question within ${this.timeoutMs / 1000} s`)),
          );
        },
        Math.min(this.timeoutMs, 2 ** 31 - 1),
      );
      timer.unref();
      const stop = () => {
        unwatch();
        clearTimeout(timer);
        this.signal.removeEventListener('abort', stopped);
      };
      // The run ends (cancelled, timed out, shut down): the question fails in the tool with the reason, so a tool
      // that awaits it stops too (the run itself has already let go of its places).
      const stopped = () => {
        stop();
        reject(this.signal.reason);
      };
      if (this.signal.aborted) return stopped();
      this.signal.addEventListener('abort', stopped, { once: true });
    });
  }

  /**
   * Takes an unanswered question back: the task no longer shows it, and is `working` again when none is left. Resolves
   * with the answer instead when one arrived meanwhile.
   */
  private async withdraw(key: string): Promise<Record<string, unknown> | undefined> {
    let late: Record<string, unknown> | undefined;
    await this.store
      .update(this.taskId, (task) => {
        const answer = task.answers[key];
        late = isAnswer(answer) ? answer : undefined;
        if (late || !Object.hasOwn(task.inputRequests, key)) return undefined;
        const inputRequests = { ...task.inputRequests };
        delete inputRequests[key];
        return { inputRequests, status: Object.keys(inputRequests).length ? 'input_required' : 'working' };
      })
      .catch(() => undefined); // the store is down: the run's outcome, written with retries, replaces it anyway
    if (!late) await this.events.changed(this.taskId);
    return late;
  }
}

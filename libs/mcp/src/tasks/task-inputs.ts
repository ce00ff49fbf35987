import { CallQuestions, InputRequest } from '../pipeline/input-rounds';
import { McpTaskStore } from '../stores/task.store';
import { McpTaskEvents } from './task-events';

/** How often a waiting question reads the task again, in case a change notice was lost. */
const RECHECK_MS = 2_000;

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
    private readonly signal: AbortSignal,
  ) {}

  nextKey(kind: string): string {
    const n = (this.counters.get(kind) ?? 0) + 1;
    this.counters.set(kind, n);
    return `${kind}_${n}`;
  }

  async ask(key: string, request: InputRequest): Promise<Record<string, unknown>> {
    const known = this.answers[key];
    if (isAnswer(known)) return known;
    const asked = await this.store.update(this.taskId, (task) =>
      isAnswer(task.answers[key])
        ? undefined
        : {
            status: 'input_required',
            inputRequests: { ...task.inputRequests, [key]: request },
            asked: task.asked.includes(key) ? task.asked : [...task.asked, key],
          },
    );
    const answer = asked?.answers[key];
    if (isAnswer(answer)) return answer;
    await this.events.changed(this.taskId);
    return this.answerOf(key);
  }

  /** Waits for the answer to `key`: on each change notice, and every few seconds, the task is read again. */
  private answerOf(key: string): Promise<Record<string, unknown>> {
    return new Promise((resolve) => {
      let reading = false;
      const check = () => {
        if (reading || this.signal.aborted) return;
        reading = true;
        this.store
          .get(this.taskId)
          .then((task) => {
            const answer = task?.answers[key];
            if (isAnswer(answer)) {
              stop();
              resolve(answer);
            }
          })
          .catch(() => undefined) // the store is down: read again on the next notice or tick
          .finally(() => (reading = false));
      };
      const unwatch = this.events.watch(this.taskId, check);
      const timer = setInterval(check, RECHECK_MS);
      timer.unref();
      // The run ends (cancelled, timed out): stop waiting; the promise is dropped with the run.
      const stop = () => {
        unwatch();
        clearInterval(timer);
        this.signal.removeEventListener('abort', stop);
      };
      this.signal.addEventListener('abort', stop, { once: true });
    });
  }
}

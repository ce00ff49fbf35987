import { Logger } from '@nestjs/common';
import { McpTaskHead, McpTaskRecord, McpTaskStore } from '../stores/task.store';

const logger = new Logger('McpTasks');
/** How often, and how many times, a handed-on run's task is looked for while the store does not answer. */
const LOOK_AGAIN_MS = 1_000;
const LOOKS = 5;

/**
 * What a run's end is called in metrics, its span and the audit (`task_run`'s `outcome`): the task's status once the
 * run's outcome is recorded; `handed_on` when the queue said its lock was lost and the task is still in the store
 * (the worker that takes it over decides); `lost` when the task's record vanished from the store under the run (a
 * Redis restarted empty, flushed or failed over without its data): the run may have had effects, and no client can
 * learn them (every task method answers task not found); `failed` when the store stayed unreachable past every retry.
 *
 * @param after the record once the outcome was written, `null` when the store no longer knew the task, `undefined`
 *   when nothing was written (the run was handed on, or the store stayed unreachable).
 * @internal
 */
export async function runOutcome(
  store: McpTaskStore,
  task: Pick<McpTaskRecord, 'id' | 'tool'>,
  handedOn: boolean,
  after: McpTaskRecord | null | undefined,
): Promise<string> {
  if (after) return after.status;
  if (after === undefined) {
    if (!handedOn) return 'failed';
    // Lost only if the store answers and no longer has the task; unreachable, the run that takes it over decides.
    if ((await headOf(store, task.id)) !== undefined) return 'handed_on';
  }
  logger.warn(
    `task ${task.id} (${task.tool}): its record is gone from the task store (emptied, flushed or failed over ` +
      'without its data) while it ran; the run may have had effects that no client can learn (outcome: lost)',
  );
  return 'lost';
}

/** The task's head, `undefined` when the store answers without it, `'unknown'` when the store never answered. */
async function headOf(store: McpTaskStore, id: string): Promise<McpTaskHead | 'unknown' | undefined> {
  // A lock found lost right after Redis came back: the store's own connection may still be reconnecting.
  for (let look = 1; ; look++) {
    try {
      return await store.head(id);
    } catch {
      if (look === LOOKS) return 'unknown';
      await new Promise((r) => setTimeout(r, LOOK_AGAIN_MS));
    }
  }
}

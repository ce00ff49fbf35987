import { Inject, Injectable } from '@nestjs/common';
import { MCP_TASK_STORE, McpTaskRecord, McpTaskStore } from '../stores/task.store';
import { McpTaskEvents } from './task-events';

/** How often a watched task's head is read, in case a change notice was lost. */
const RECHECK_MS = 2_000;

/** Told the task each time it was read after a change (undefined: it expired). Must not change it: it is shared. */
export type McpTaskListener = (task: McpTaskRecord | undefined) => void;

interface Watched {
  listeners: Set<McpTaskListener>;
  /** The revision last read in full; a periodic look reads the whole task only when the head's differs. */
  revision?: number;
  reading: boolean;
  /** A notice came while reading: read once more afterwards, so the last change is never missed. */
  again: boolean;
  stop: () => void;
}

/**
 * Everything on this replica that waits on a task (a blocked 2025 `tasks/result`, a listen stream following it, a run
 * waiting for an answer) shares one watch per task: on a change notice the task is read once for all of them, and the
 * periodic check in case a notice was lost reads only its head (owner, status, revision), the whole record only when
 * it moved. So a hundred waiters on one task cost one read per change, not a hundred reads every few seconds.
 * @internal
 */
@Injectable()
export class McpTaskWatch {
  private readonly watched = new Map<string, Watched>();

  constructor(
    @Inject(MCP_TASK_STORE) private readonly store: McpTaskStore,
    private readonly events: McpTaskEvents,
  ) {}

  /** Calls `listener` with task `id` after each of its changes; the returned function stops it. */
  watch(id: string, listener: McpTaskListener): () => void {
    let entry = this.watched.get(id);
    if (!entry) {
      const unwatch = this.events.watch(id, () => this.read(id));
      const timer = setInterval(() => void this.look(id), RECHECK_MS);
      timer.unref();
      entry = { listeners: new Set(), reading: false, again: false, stop: () => (unwatch(), clearInterval(timer)) };
      this.watched.set(id, entry);
    }
    // A newcomer may have missed a change the others already heard (the revision looked at is theirs): the next look
    // reads the task in full for everyone.
    else entry.revision = undefined;
    const current = entry;
    current.listeners.add(listener);
    return () => {
      current.listeners.delete(listener);
      if (current.listeners.size > 0 || this.watched.get(id) !== current) return;
      current.stop();
      this.watched.delete(id);
    };
  }

  /** Tasks watched on this replica (metrics and tests). */
  get size(): number {
    return this.watched.size;
  }

  private async look(id: string): Promise<void> {
    const entry = this.watched.get(id);
    if (!entry || entry.reading) return;
    const head = await this.store.head(id).catch(() => null); // the store is down: look again on the next tick
    if (head === null || (head && head.revision === entry.revision)) return;
    if (head) entry.revision = head.revision;
    this.read(id);
  }

  private read(id: string): void {
    const entry = this.watched.get(id);
    if (!entry) return;
    if (entry.reading) {
      entry.again = true;
      return;
    }
    entry.reading = true;
    void this.store
      .get(id)
      .then((task) => {
        for (const listener of [...entry.listeners]) {
          try {
            listener(task);
          } catch {
            // one waiter's fault must not keep the task from the others
          }
        }
      })
      .catch(() => undefined) // the store is down: the next notice or look reads again
      .finally(() => {
        entry.reading = false;
        if (entry.again) {
          entry.again = false;
          this.read(id);
        }
      });
  }
}

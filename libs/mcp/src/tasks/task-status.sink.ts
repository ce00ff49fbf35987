import { MessageSink } from '../wire/message-sink';
import { McpTaskStore } from '../stores/task.store';
import { McpTaskEvents } from './task-events';

/** At most one status write per task this often: progress may be reported many times a second. */
const STATUS_EVERY_MS = 1_000;
const MAX_STATUS_CHARS = 256;

/**
 * Where a task run's own messages go. Its progress (`ctx.reportProgress(p, total, message)`) becomes the task's
 * `statusMessage`, which `tasks/get` shows: the 2026-07-28 extension sends no progress notifications for tasks.
 * Client log lines have no one to go to and are dropped. The newest report in a burst wins.
 * @internal
 */
export function taskStatusSink(store: McpTaskStore, events: McpTaskEvents, taskId: string): MessageSink {
  let last = 0;
  let pending: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  const write = () => {
    timer = undefined;
    last = Date.now();
    const statusMessage = pending;
    pending = undefined;
    void store
      .update(taskId, (task) =>
        task.status === 'working' && statusMessage !== task.statusMessage ? { statusMessage } : undefined,
      )
      .then(() => events.changed(taskId))
      .catch(() => undefined); // a status message is best effort; the outcome is recorded with retries
  };
  return {
    send(message) {
      if (!('method' in message) || message.method !== 'notifications/progress') return true;
      const p = message.params ?? {};
      const text =
        typeof p.message === 'string'
          ? p.message
          : `${String(p.progress)}${typeof p.total === 'number' ? ` of ${p.total}` : ''}`;
      pending = text.slice(0, MAX_STATUS_CHARS);
      if (!timer) timer = setTimeout(write, Math.max(0, last + STATUS_EVERY_MS - Date.now()));
      return true;
    },
  };
}

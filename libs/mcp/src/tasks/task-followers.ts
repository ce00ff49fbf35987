import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { McpSession } from '../sessions/mcp-session';
import { MCP_TASK_STORE, McpTaskRecord, McpTaskStore, TERMINAL_TASK_STATUSES } from '../stores/task.store';
import { McpTaskEvents } from './task-events';
import { McpTaskWatch } from './task-watch';
import { sessionEraTask } from './task-wire';

/** What a follower is told about: the status and the questions open (not every status message). */
const shapeOf = (task: McpTaskRecord) => `${task.status} ${Object.keys(task.inputRequests).join(',')}`;

/**
 * Status notifications of tasks, in both eras. A 2026-07-28 `subscriptions/listen` stream follows the tasks it named
 * (`notifications/tasks`, the task as `tasks/get` shows it), whichever replica changes them. A 2025-11-25 session
 * hears of its tasks on its standalone stream (`notifications/tasks/status`) when this replica holds it, as the one
 * that created the task usually does: optional in the utility, whose clients poll `tasks/get` anyway.
 * @internal
 */
@Injectable()
export class McpTaskFollowers implements OnModuleInit {
  private readonly sessions = new Map<string, { session: McpSession; status: string; until: number }>();

  constructor(
    @Inject(MCP_TASK_STORE) private readonly store: McpTaskStore,
    private readonly events: McpTaskEvents,
    private readonly watch: McpTaskWatch,
  ) {}

  onModuleInit(): void {
    this.events.onAnyChange((id) => {
      const watched = this.sessions.get(id);
      if (watched) void this.notifySession(id, watched);
    });
  }

  /**
   * Calls `send` with each of `tasks` whenever its status (or what it waits on) changes, until it is final. Returns
   * them and the function that stops following.
   */
  follow(tasks: McpTaskRecord[], send: (task: McpTaskRecord) => void): { followed: McpTaskRecord[]; stop: () => void } {
    const stops = tasks.map((task) => {
      // A final task changes no more: its current state (sent by the caller) is all there is to tell.
      if (TERMINAL_TASK_STATUSES.has(task.status)) return () => undefined;
      let last = shapeOf(task);
      const stop = this.watch.watch(task.id, (now) => {
        if (!now) return stop(); // expired: nothing more will come
        if (shapeOf(now) === last) return;
        last = shapeOf(now);
        send(now);
        if (TERMINAL_TASK_STATUSES.has(now.status)) stop();
      });
      return stop;
    });
    return { followed: tasks, stop: () => stops.forEach((s) => s()) };
  }

  /** Tells `session` (2025-11-25) of the status changes of `task` from now on. */
  tellSession(task: McpTaskRecord, session: McpSession): void {
    // A task that expires unchanged (its workers gone, nobody polling) sends no notice that would remove it: entries
    // are dropped once their task could no longer exist, so no ended session is held for long.
    const now = Date.now();
    for (const [id, watched] of this.sessions) if (watched.until <= now) this.sessions.delete(id);
    this.sessions.set(task.id, { session, status: task.status, until: task.createdAt + task.ttlMs });
  }

  private async notifySession(id: string, watched: { session: McpSession; status: string }): Promise<void> {
    const task = await this.store.get(id).catch(() => undefined);
    if (!task || TERMINAL_TASK_STATUSES.has(task.status)) this.sessions.delete(id);
    if (!task || task.status === watched.status) return;
    watched.status = task.status;
    watched.session.standalone?.send({
      jsonrpc: '2.0',
      method: 'notifications/tasks/status',
      params: sessionEraTask(task),
    });
  }
}

import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { MCP_MESSAGE_BUS, McpMessageBus } from '../stores/message.bus';

const TOPIC = 'task-changed';

/**
 * "Task X changed", between replicas: a run waiting for an answer, a run to stop, a blocked `tasks/result` and the
 * listen streams following a task all learn of a change this way, then read the task from the store. The message
 * carries only the id (never the task), so what travels on the bus leaks nothing. Delivery is at most once: whoever
 * waits also reads the store again now and then.
 * @internal
 */
@Injectable()
export class McpTaskEvents implements OnModuleInit {
  private readonly logger = new Logger('McpTasks');
  private readonly watchers = new Map<string, Set<() => void>>();
  private readonly everyChange = new Set<(id: string) => void>();

  constructor(@Inject(MCP_MESSAGE_BUS) private readonly bus: McpMessageBus) {}

  onModuleInit(): void {
    // Not awaited: with Redis down at boot the replica starts and subscribes once Redis is back.
    void this.bus
      .subscribe(TOPIC, (m) => {
        const id = (m as { id?: unknown }).id;
        if (typeof id === 'string') this.deliver(id);
      })
      .catch((e: Error) => this.logger.error(`bus: cannot subscribe to ${TOPIC}: ${e.message}`));
  }

  /** Tells every replica that task `id` changed. A bus that cannot publish is logged: pollers still see the change. */
  async changed(id: string): Promise<void> {
    await this.bus.publish(TOPIC, { id }).catch((e: Error) => this.logger.warn(`bus: cannot publish: ${e.message}`));
  }

  /** Calls `listener` on every change of task `id`, on this replica; the returned function stops it. */
  watch(id: string, listener: () => void): () => void {
    let set = this.watchers.get(id);
    if (!set) this.watchers.set(id, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.watchers.get(id) === set) this.watchers.delete(id);
    };
  }

  /** Calls `listener` with the id of every task that changes (status notifications). */
  onAnyChange(listener: (id: string) => void): () => void {
    this.everyChange.add(listener);
    return () => this.everyChange.delete(listener);
  }

  private deliver(id: string): void {
    for (const listener of [...(this.watchers.get(id) ?? [])]) listener();
    for (const listener of this.everyChange) listener(id);
  }
}

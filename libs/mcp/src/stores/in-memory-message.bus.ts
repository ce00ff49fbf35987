import { McpMessageBus } from './message.bus';

/** The default bus: one process, so delivery is a function call (on a later tick, as over the network). */
export class InMemoryMessageBus implements McpMessageBus {
  private readonly handlers = new Map<string, ((message: unknown) => void)[]>();

  async publish(topic: string, message: unknown): Promise<void> {
    const copy = structuredClone(message);
    for (const handler of this.handlers.get(topic) ?? []) queueMicrotask(() => handler(copy));
  }

  async subscribe(topic: string, handler: (message: unknown) => void): Promise<void> {
    const list = this.handlers.get(topic) ?? [];
    list.push(handler);
    this.handlers.set(topic, list);
  }

  async ping(): Promise<void> {}
}

import { Logger } from '@nestjs/common';
import { RedisClient, createSubscriber } from './redis-client.factory';
import { McpMessageBus } from './message.bus';

/**
 * Redis pub/sub between replicas: messages are published on `<prefix>bus:<topic>` with the shared connection and
 * received on a second one (a subscribed Redis connection can do nothing else). Delivery is at most once: a replica
 * that is disconnected at that moment misses the message, which suits what travels here (notifications,
 * cancellations and answers for calls that would have failed anyway).
 */
export class RedisMessageBus implements McpMessageBus {
  private readonly logger = new Logger('McpBus');
  private readonly subscriber: RedisClient;
  private readonly handlers = new Map<string, ((message: unknown) => void)[]>();

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix = 'mcp:',
  ) {
    this.subscriber = createSubscriber(redis);
    this.subscriber.on('error', () => undefined); // the shared connection logs outages
    this.subscriber.on('message', (channel: string, raw: string) => {
      const handlers = this.handlers.get(channel);
      if (!handlers) return;
      let message: unknown;
      try {
        message = JSON.parse(raw);
      } catch {
        return this.logger.warn(`bus: dropped a message that is not JSON on ${channel.slice(0, 100)}`);
      }
      for (const handler of handlers) handler(message);
    });
  }

  async publish(topic: string, message: unknown): Promise<void> {
    await this.redis.publish(`${this.prefix}bus:${topic}`, JSON.stringify(message));
  }

  async subscribe(topic: string, handler: (message: unknown) => void): Promise<void> {
    const channel = `${this.prefix}bus:${topic}`;
    const list = this.handlers.get(channel);
    if (list) return void list.push(handler);
    this.handlers.set(channel, [handler]);
    await this.subscriber.subscribe(channel);
  }

  /** Nest calls it on shutdown (the bus is a provider). */
  async onApplicationShutdown(): Promise<void> {
    await this.subscriber.quit().catch(() => this.subscriber.disconnect());
  }
}

import { Logger } from '@nestjs/common';
import { RedisClient, createSubscriber, isCluster } from './redis-client.factory';
import { closeRedisClient } from './redis-close';
import { McpMessageBus } from './message.bus';

/**
 * Redis pub/sub between replicas: messages are published on `<prefix>bus:<topic>` with the shared connection and
 * received on a second one (a subscribed Redis connection can do nothing else). Delivery is at most once: a replica
 * that is disconnected at that moment misses the message, which suits what travels here (notifications,
 * cancellations and answers for calls that would have failed anyway).
 *
 * On a Cluster the bus uses sharded pub/sub (`SPUBLISH`/`SSUBSCRIBE`): a channel lives on the master of its slot,
 * which queues the message to every subscriber before it answers the publisher, as a single node does. Plain
 * `PUBLISH` would cross the cluster bus to the other nodes afterwards, so a replica could serve a session once
 * more after another replica answered its `DELETE`.
 */
export class RedisMessageBus implements McpMessageBus {
  private readonly logger = new Logger('McpBus');
  private readonly subscriber: RedisClient;
  private readonly handlers = new Map<string, ((message: unknown) => void)[]>();
  private readonly sharded: boolean;

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix = 'mcp:',
  ) {
    this.sharded = isCluster(redis);
    this.subscriber = createSubscriber(redis);
    this.subscriber.on('error', () => undefined); // the shared connection logs outages
    this.subscriber.on(this.sharded ? 'smessage' : 'message', (channel: string, raw: string) => {
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
    const channel = `${this.prefix}bus:${topic}`;
    const raw = JSON.stringify(message);
    await (this.sharded ? this.redis.spublish(channel, raw) : this.redis.publish(channel, raw));
  }

  async subscribe(topic: string, handler: (message: unknown) => void): Promise<void> {
    const channel = `${this.prefix}bus:${topic}`;
    const list = this.handlers.get(channel);
    if (list) return void list.push(handler);
    this.handlers.set(channel, [handler]);
    await (this.sharded ? this.subscriber.ssubscribe(channel) : this.subscriber.subscribe(channel));
  }

  /**
   * Nest calls it on shutdown (the bus is a provider). Bounded whatever Redis does (see closeRedisClient): a bare
   * `quit()` would wait for ever behind a SUBSCRIBE queued while Redis is down. Silent: the shared connection
   * reports a store that could not be closed cleanly.
   */
  async onApplicationShutdown(): Promise<void> {
    await closeRedisClient(this.subscriber);
  }
}

import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { RedisClient, createRedisClient } from './redis-client.factory';
import { closeRedisClient } from './redis-close';

/**
 * The one ioredis connection the Redis stores share (`store: 'redis'`): `REDIS_URL` (`rediss://` for TLS), or the
 * master behind `REDIS_SENTINELS`, or the Cluster of `REDIS_CLUSTER_NODES` (see createRedisClient). An outage is
 * logged once, and its end once. On shutdown it is closed within a second, reachable or not.
 * @internal
 */
@Injectable()
export class RedisConnection implements OnApplicationShutdown {
  private readonly logger = new Logger('McpRedis');
  /** Connects as `options.redis` says (ioredis is loaded only then: see createRedisClient). */
  static async open(options: ResolvedMcpOptions): Promise<RedisConnection> {
    return new RedisConnection(await createRedisClient(options.redis));
  }

  private constructor(readonly client: RedisClient) {
    let down = false;
    this.client.on('error', (e: Error) => {
      if (!down) this.logger.error(`Redis unreachable: ${e.message}`);
      down = true;
    });
    this.client.on('ready', () => {
      if (down) this.logger.log('Redis reachable again');
      down = false;
    });
  }

  /** Within a second whatever Redis does (see closeRedisClient): a replica on an unreachable Redis still exits. */
  async onApplicationShutdown(): Promise<void> {
    const problem = await closeRedisClient(this.client);
    if (problem)
      this.logger.warn(`shutdown: the Redis store could not be closed cleanly (${problem}): connection dropped`);
  }
}

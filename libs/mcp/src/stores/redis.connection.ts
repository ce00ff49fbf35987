import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../interfaces/mcp-module-options.interface';

/**
 * The one ioredis connection the Redis stores share (`store: 'redis'`), from `REDIS_URL` (`redis://`, or
 * `rediss://` for TLS). Commands fail within a second when Redis cannot be reached (one retry, a command timeout)
 * instead of queueing, so a request gets a clear 503 rather than hanging; ioredis reconnects by itself.
 * @internal
 */
@Injectable()
export class RedisConnection implements OnApplicationShutdown {
  private readonly logger = new Logger('McpRedis');
  readonly client: Redis;

  constructor(@Inject(MCP_MODULE_OPTIONS) options: ResolvedMcpOptions) {
    this.client = new Redis(options.redis.url, {
      lazyConnect: false,
      maxRetriesPerRequest: 1,
      commandTimeout: 1_000,
      connectTimeout: 2_000,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    });
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

  async onApplicationShutdown(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}

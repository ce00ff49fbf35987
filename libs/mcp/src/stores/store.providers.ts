import { Provider } from '@nestjs/common';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { MCP_SESSION_STORE } from './session.store';
import { MCP_EVENT_STORE } from './event.store';
import { MCP_LIMIT_STORE } from './limit.store';
import { InMemorySessionStore } from './in-memory-session.store';
import { InMemoryEventStore } from './in-memory-event.store';
import { InMemoryLimitStore } from './in-memory-limit.store';
import { RedisSessionStore } from './redis-session.store';
import { RedisLimitStore } from './redis-limit.store';
import { RedisEventStore } from './redis-event.store';
import { RedisConnection } from './redis.connection';
import { MCP_MESSAGE_BUS } from './message.bus';
import { InMemoryMessageBus } from './in-memory-message.bus';
import { RedisMessageBus } from './redis-message.bus';
import { MCP_KEY_STORE } from './key.store';
import { InMemoryKeyStore } from './in-memory-key.store';
import { RedisKeyStore } from './redis-key.store';
import { MCP_TASK_STORE } from './task.store';
import { InMemoryTaskStore } from './in-memory-task.store';
import { RedisTaskStore } from './redis-task.store';
import { MCP_IDEMPOTENCY_STORE } from './idempotency.store';
import { InMemoryIdempotencyStore } from './in-memory-idempotency.store';
import { RedisIdempotencyStore } from './redis-idempotency.store';

/**
 * The stores, chosen by `store` (`MCP_STORE`): `memory` (default, nothing to set up) or `redis`. A team can still
 * provide its own implementation under any of the tokens.
 * @internal
 */
export const STORE_PROVIDERS: Provider[] = [
  {
    provide: RedisConnection,
    inject: [MCP_MODULE_OPTIONS],
    useFactory: (o: ResolvedMcpOptions) => (o.store === 'redis' ? RedisConnection.open(o) : undefined),
  },
  {
    provide: MCP_SESSION_STORE,
    inject: [MCP_MODULE_OPTIONS, RedisConnection],
    useFactory: (o: ResolvedMcpOptions, redis?: RedisConnection) =>
      redis ? new RedisSessionStore(redis.client, o.redis.keyPrefix) : new InMemorySessionStore(),
  },
  {
    provide: MCP_MESSAGE_BUS,
    inject: [MCP_MODULE_OPTIONS, RedisConnection],
    useFactory: (o: ResolvedMcpOptions, redis?: RedisConnection) =>
      redis ? new RedisMessageBus(redis.client, o.redis.keyPrefix) : new InMemoryMessageBus(),
  },
  {
    provide: MCP_EVENT_STORE,
    inject: [MCP_MODULE_OPTIONS, RedisConnection],
    useFactory: (o: ResolvedMcpOptions, redis?: RedisConnection) =>
      redis ? new RedisEventStore(redis.client, o.redis.keyPrefix, o.sessionIdleTimeoutMs) : new InMemoryEventStore(),
  },
  {
    provide: MCP_LIMIT_STORE,
    inject: [MCP_MODULE_OPTIONS, RedisConnection],
    useFactory: (o: ResolvedMcpOptions, redis?: RedisConnection) =>
      redis ? new RedisLimitStore(redis.client, o.redis.keyPrefix) : new InMemoryLimitStore(),
  },
  {
    provide: MCP_KEY_STORE,
    inject: [MCP_MODULE_OPTIONS, RedisConnection],
    useFactory: (o: ResolvedMcpOptions, redis?: RedisConnection) =>
      redis ? new RedisKeyStore(redis.client, o.redis.keyPrefix) : new InMemoryKeyStore(),
  },
  {
    provide: MCP_TASK_STORE,
    inject: [MCP_MODULE_OPTIONS, RedisConnection],
    useFactory: (o: ResolvedMcpOptions, redis?: RedisConnection) =>
      redis ? new RedisTaskStore(redis.client, o.redis.keyPrefix) : new InMemoryTaskStore(),
  },
  {
    provide: MCP_IDEMPOTENCY_STORE,
    inject: [MCP_MODULE_OPTIONS, RedisConnection],
    useFactory: (o: ResolvedMcpOptions, redis?: RedisConnection) =>
      redis ? new RedisIdempotencyStore(redis.client, o.redis.keyPrefix) : new InMemoryIdempotencyStore(),
  },
];

import { Provider } from '@nestjs/common';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { RedisConnection } from '../stores/redis.connection';
import { MCP_TASK_QUEUE } from './task.queue';
import { InProcessTaskQueue } from './in-process-task.queue';
import { BullmqTaskQueue } from './bullmq-task.queue';
import { McpTaskEvents } from './task-events';
import { McpTaskWatch } from './task-watch';
import { McpTasks } from './mcp-tasks.service';
import { McpTaskRunner } from './task.runner';
import { McpTaskRunGate } from './task-run-gate';
import { McpTaskFollowers } from './task-followers';
import { McpTaskObserver } from './task-observer';

/**
 * Tasks: the queue (BullMQ on the Redis store, in process otherwise), the change notices and the shared watches, the
 * request side, and the worker side with its per-caller run places. The queue reports the jobs BullMQ gives up on to
 * the runner, which fails their tasks.
 * @internal
 */
export const TASK_PROVIDERS: Provider[] = [
  {
    provide: MCP_TASK_QUEUE,
    inject: [MCP_MODULE_OPTIONS, RedisConnection],
    useFactory: (o: ResolvedMcpOptions, redis?: RedisConnection) => {
      if (!redis) return new InProcessTaskQueue();
      return BullmqTaskQueue.open(redis.client, o.redis.keyPrefix, { lockMs: o.tasks.lockMs });
    },
  },
  McpTaskEvents,
  McpTaskWatch,
  McpTaskFollowers,
  McpTaskObserver,
  McpTasks,
  McpTaskRunGate,
  McpTaskRunner,
];

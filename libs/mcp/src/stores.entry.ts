/**
 * Entry point `@app/mcp/stores`: the contracts of shared state, for a team that brings its own backend. The platform
 * keeps every piece of state a replica shares behind one of these (in memory by default, Redis with
 * `store: 'redis'`); provide your own implementation under the token to replace one. The task queue is here too: it
 * is the durable part of a task's life (BullMQ on Redis, in process when embedded).
 *
 * @example
 * import { MCP_EVENT_STORE, McpEventStore } from '@app/mcp/stores';
 * \@Module({ providers: [{ provide: MCP_EVENT_STORE, useClass: KafkaEventStore }] })
 */
export { McpSessionStore, McpSessionRecord, MCP_SESSION_STORE } from './stores/session.store';
export { McpMessageBus, MCP_MESSAGE_BUS } from './stores/message.bus';
export { McpEventStore, MCP_EVENT_STORE } from './stores/event.store';
export { McpLimitStore, MCP_LIMIT_STORE } from './stores/limit.store';
export { McpKeyStore, MCP_KEY_STORE } from './stores/key.store';
export {
  McpTaskStore,
  McpTaskRecord,
  McpTaskStatus,
  McpTaskHead,
  McpTaskCaps,
  McpTaskCreateRefusal,
  MCP_TASK_STORE,
} from './stores/task.store';
export {
  McpIdempotencyStore,
  IdempotencyClaim,
  IdempotencyClaimBounds,
  MCP_IDEMPOTENCY_STORE,
} from './stores/idempotency.store';
export { McpTaskQueue, McpTaskQueueEvents, McpTaskRun, MCP_TASK_QUEUE } from './tasks/task.queue';

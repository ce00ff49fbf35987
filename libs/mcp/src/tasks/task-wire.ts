import { McpTaskRecord } from '../stores/task.store';
import { RELATED_TASK_META } from './tasks.constants';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A task as the 2026-07-28 extension shows it (`Task`): `ttlMs`, `pollIntervalMs`, timestamps in ISO 8601.
 * `detailed` adds what its status carries (`DetailedTask`: `inputRequests`, `result` or `error`), as `tasks/get` and
 * `notifications/tasks` answer; the task handle (`CreateTaskResult`) has none of them.
 * @internal
 */
export function modernTask(record: McpTaskRecord, detailed: boolean): Record<string, unknown> {
  const task: Record<string, unknown> = {
    taskId: record.id,
    status: record.status,
    ...(record.statusMessage === undefined ? {} : { statusMessage: record.statusMessage }),
    createdAt: iso(record.createdAt),
    lastUpdatedAt: iso(record.lastUpdatedAt),
    ttlMs: record.ttlMs,
    pollIntervalMs: record.pollIntervalMs,
  };
  if (!detailed) return task;
  if (record.status === 'input_required') task.inputRequests = record.inputRequests;
  if (record.status === 'completed' && record.result) task.result = record.result;
  if (record.status === 'failed') task.error = record.error ?? { code: -32603, message: 'Internal error' };
  return task;
}

/** A task as the 2025-11-25 utility shows it (`Task`): `ttl`, `pollInterval`. @internal */
export function sessionEraTask(record: McpTaskRecord): Record<string, unknown> {
  return {
    taskId: record.id,
    status: record.status,
    ...(record.statusMessage === undefined ? {} : { statusMessage: record.statusMessage }),
    createdAt: iso(record.createdAt),
    lastUpdatedAt: iso(record.lastUpdatedAt),
    ttl: record.ttlMs,
    pollInterval: record.pollIntervalMs,
  };
}

/** The 2025-11-25 `tasks/result` of a finished task: the call's own result, tied to its task. @internal */
export function sessionEraTaskResult(record: McpTaskRecord): Record<string, unknown> {
  const result = record.result ?? {};
  return { ...result, _meta: { ...(result._meta as object | undefined), [RELATED_TASK_META]: { taskId: record.id } } };
}

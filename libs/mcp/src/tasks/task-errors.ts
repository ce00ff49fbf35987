import { McpError, InvalidParamsError } from '../errors/mcp.error';
import { ErrorCode } from '../wire/json-rpc';
import { McpTaskCreateRefusal } from '../stores/task.store';
import { ResolvedTasksOptions } from '../options/tasks-options.interface';
import { MAX_TASK_ID_CHARS } from './tasks.constants';

/* The errors of the task requests, each with a documented `data.reason` (docs/tasks.md). */

/** The task id of a request, or `-32602` when it is not one. @internal */
export const taskIdOf = (id: unknown): string => {
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_TASK_ID_CHARS)
    throw new InvalidParamsError('Invalid params: taskId must be a task id string', {
      field: 'taskId',
      reason: 'type',
    });
  return id;
};

/** `-32003` for a cap the store reached (see McpTaskCaps), with when to retry. @internal */
export function capReached(refused: McpTaskCreateRefusal, t: ResolvedTasksOptions): McpError {
  switch (refused.reason) {
    case 'owner_full':
      return new McpError(
        ErrorCode.RateLimited,
        `Rate limited: at most ${t.maxOpenPerSubject} open tasks per caller; wait for one to finish or cancel one`,
        { reason: 'too_many_tasks', max: t.maxOpenPerSubject, retryAfter: 5 },
      );
    case 'full':
      return new McpError(
        ErrorCode.RateLimited,
        `Rate limited: the task queue is full (${t.maxOpen} open tasks); retry later`,
        { reason: 'task_queue_full', max: t.maxOpen, retryAfter: 5 },
      );
    case 'owner_kept_full': {
      const retryAfter = Math.max(1, Math.ceil(((refused.retryAt ?? Date.now()) - Date.now()) / 1000));
      return new McpError(
        ErrorCode.RateLimited,
        `Rate limited: at most ${t.maxKeptPerSubject} tasks per caller are kept (finished and cancelled ones until ` +
          `they expire); the oldest expires in ${retryAfter} s`,
        { reason: 'too_many_kept_tasks', max: t.maxKeptPerSubject, retryAfter },
      );
    }
    case 'kept_full':
      return new McpError(
        ErrorCode.RateLimited,
        `Rate limited: the server keeps as many tasks as it may (${t.maxKept}); retry later`,
        { reason: 'task_store_full', max: t.maxKept, retryAfter: 30 },
      );
    case 'owner_bytes_full':
    case 'bytes_full':
      return bytesFull(refused.reason, t, refused.retryAt);
  }
}

/**
 * `-32003` for a task that would take the caller's (`too_many_task_bytes`) or the deployment's (`task_store_full`)
 * kept tasks past their bytes (`tasks.maxBytesPerSubject`, `tasks.maxStoreBytes`): at creation, for answers, for a
 * question, for a result.
 * @internal
 */
export function bytesFull(reason: 'owner_bytes_full' | 'bytes_full', t: ResolvedTasksOptions, retryAt?: number) {
  if (reason === 'bytes_full')
    return new McpError(
      ErrorCode.RateLimited,
      `Rate limited: the server's tasks take all the bytes it keeps for them (${t.maxStoreBytes}); retry later`,
      { reason: 'task_store_full', maxBytes: t.maxStoreBytes, retryAfter: 30 },
    );
  const retryAfter = retryAt === undefined ? 30 : Math.max(1, Math.ceil((retryAt - Date.now()) / 1000));
  return new McpError(
    ErrorCode.RateLimited,
    `Rate limited: this caller's kept tasks take at most ${t.maxBytesPerSubject} bytes (finished and cancelled ones ` +
      `until they expire); this would pass it`,
    { reason: 'too_many_task_bytes', maxBytes: t.maxBytesPerSubject, retryAfter },
  );
}

/** `-32602` for a task that would keep more than `tasks.maxBytes`. @internal */
export const tooLarge = (what: string, max: number) =>
  new McpError(ErrorCode.InvalidParams, `Invalid params: the task is too large: ${what}; at most ${max} are kept`, {
    reason: 'task_too_large',
    max,
  });

/** @internal */
export const notFound = () =>
  new InvalidParamsError('Failed to retrieve task: Task not found', { field: 'taskId', reason: 'task_not_found' });

/** @internal */
export const unavailable = (what: string) =>
  new McpError(ErrorCode.UpstreamUnavailable, `Unavailable: ${what}; retry shortly`, {
    reason: 'task_store_unavailable',
    retryAfter: 1,
  });

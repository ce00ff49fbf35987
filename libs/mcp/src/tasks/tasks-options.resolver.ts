import { McpTasksOptions, ResolvedTasksOptions } from '../options/tasks-options.interface';
import { McpTaskByteCaps } from '../stores/task.store';

/** The byte caps of the task settings, as the task store checks them. @internal */
export const taskByteCaps = (t: ResolvedTasksOptions): McpTaskByteCaps => ({
  bytesPerOwner: t.maxBytesPerSubject,
  bytesTotal: t.maxStoreBytes,
});

const num = (v: string | undefined): number | undefined => (v === undefined || v === '' ? undefined : Number(v));

/** The task settings: the option, then the environment, then the defaults; a bad value stops the boot. @internal */
export function resolveTasksOptions(
  o: McpTasksOptions | undefined,
  env: NodeJS.ProcessEnv,
  store: 'memory' | 'redis',
): ResolvedTasksOptions {
  const worker = o?.worker ?? !/^(false|0|off)$/i.test(env.MCP_TASK_WORKER?.trim() ?? '');
  const resolved: ResolvedTasksOptions = {
    ttlMs: o?.ttlMs ?? num(env.MCP_TASK_TTL_MS) ?? 60 * 60_000,
    maxTtlMs: o?.maxTtlMs ?? num(env.MCP_TASK_MAX_TTL_MS) ?? 24 * 60 * 60_000,
    pollIntervalMs: o?.pollIntervalMs ?? num(env.MCP_TASK_POLL_INTERVAL_MS) ?? 1_000,
    timeoutMs: o?.timeoutMs ?? num(env.MCP_TASK_TIMEOUT_MS) ?? 30 * 60_000,
    maxOpenPerSubject: o?.maxOpenPerSubject ?? num(env.MCP_MAX_TASKS_PER_SUBJECT) ?? 20,
    maxOpen: o?.maxOpen ?? num(env.MCP_MAX_TASKS) ?? 1_000,
    maxKeptPerSubject: o?.maxKeptPerSubject ?? num(env.MCP_MAX_KEPT_TASKS_PER_SUBJECT) ?? 100,
    maxKept: o?.maxKept ?? num(env.MCP_MAX_KEPT_TASKS) ?? 10_000,
    maxBytes: o?.maxBytes ?? num(env.MCP_MAX_TASK_BYTES) ?? 1024 * 1024,
    maxBytesPerSubject: o?.maxBytesPerSubject ?? num(env.MCP_MAX_TASK_BYTES_PER_SUBJECT) ?? 8 * 1024 * 1024,
    maxStoreBytes: o?.maxStoreBytes ?? num(env.MCP_MAX_TASK_STORE_BYTES) ?? 64 * 1024 * 1024,
    maxRunningPerSubject: o?.maxRunningPerSubject ?? num(env.MCP_MAX_RUNNING_TASKS_PER_SUBJECT) ?? 4,
    inputTimeoutMs: o?.inputTimeoutMs ?? num(env.MCP_TASK_INPUT_TIMEOUT_MS) ?? 10 * 60_000,
    concurrency: o?.concurrency ?? num(env.MCP_TASK_CONCURRENCY) ?? 8,
    lockMs: o?.lockMs ?? num(env.MCP_TASK_LOCK_MS) ?? 30_000,
    worker,
  };
  for (const [key, value] of Object.entries(resolved)) {
    if (key !== 'worker' && (!Number.isInteger(value) || (value as number) < 1))
      throw new Error(`McpModule: tasks.${key} must be a positive integer (got ${JSON.stringify(value)})`);
  }
  if (resolved.ttlMs > resolved.maxTtlMs) throw new Error('McpModule: tasks.ttlMs must not exceed tasks.maxTtlMs');
  if (resolved.maxKeptPerSubject < resolved.maxOpenPerSubject || resolved.maxKept < resolved.maxOpen)
    throw new Error(
      'McpModule: tasks.maxKeptPerSubject and tasks.maxKept count open tasks too: they must be at least ' +
        'tasks.maxOpenPerSubject and tasks.maxOpen',
    );
  if (resolved.maxBytesPerSubject < resolved.maxBytes || resolved.maxStoreBytes < resolved.maxBytesPerSubject)
    throw new Error(
      'McpModule: tasks.maxBytesPerSubject must be at least tasks.maxBytes (one task must fit a caller), and ' +
        'tasks.maxStoreBytes at least tasks.maxBytesPerSubject',
    );
  if (resolved.timeoutMs >= resolved.ttlMs)
    throw new Error(
      'McpModule: tasks.timeoutMs must be shorter than tasks.ttlMs (a task is removed ttlMs after it was created)',
    );
  // Without a shared store no other replica can run this one's tasks: they would wait for ever.
  if (!worker && store !== 'redis')
    throw new Error(
      'McpModule: tasks.worker false (MCP_TASK_WORKER) needs the Redis store: workers elsewhere run the tasks',
    );
  return resolved;
}

import { McpToolOptions, McpToolTaskOptions } from '../decorators/decorator-options.interface';
import { ToolTask } from './registry-entries';

const SUPPORT = ['optional', 'required'];

/**
 * A tool's `task` option, checked and resolved, or undefined for a tool that never runs as a task. Every problem is
 * reported at once (`fail`), each with its fix. A mutating task tool must say whether a run may be repeated
 * (`mutation.idempotency`): when a worker dies mid-run, that decides between running it again and failing the task.
 * @internal
 */
export function resolveToolTask(
  name: string,
  options: McpToolOptions,
  fail: (m: string) => void,
): ToolTask | undefined {
  if (options.task === undefined) return undefined;
  const o: McpToolTaskOptions = typeof options.task === 'string' ? { support: options.task } : options.task;
  if (typeof o !== 'object' || o === null || !SUPPORT.includes(o.support)) {
    fail(`tool "${name}" task must be 'optional', 'required' or { support: 'optional' | 'required', ... }`);
    return undefined;
  }
  if (o.asksFirst !== undefined && typeof o.asksFirst !== 'boolean')
    fail(`tool "${name}" task.asksFirst must be a boolean`);
  const bad = (['ttlMs', 'timeoutMs'] as const).filter((key) => {
    const v = o[key];
    return v !== undefined && (!Number.isInteger(v) || v < 1);
  });
  for (const key of bad) fail(`tool "${name}" task.${key} must be a positive integer`);
  if (!bad.length && o.ttlMs !== undefined && o.timeoutMs !== undefined && o.timeoutMs >= o.ttlMs)
    fail(
      `tool "${name}" task.timeoutMs must be shorter than task.ttlMs (a task is removed ttlMs after it was created)`,
    );
  const readOnly = options.annotations?.readOnlyHint === true;
  const idempotency = options.mutation?.idempotency;
  if (!readOnly && !idempotency)
    fail(
      `tool "${name}" runs as a task and is not readOnlyHint:true, so it needs mutation.idempotency: ` +
        `{ key: '<argument>' } when running it twice is safe (a run cut short is run again), ` +
        `or { none: '...' } (a run cut short fails the task instead)`,
    );
  const idempotent =
    readOnly ||
    options.annotations?.idempotentHint === true ||
    (typeof idempotency === 'object' && idempotency !== null && 'key' in idempotency);
  return { support: o.support, asksFirst: o.asksFirst === true, ttlMs: o.ttlMs, timeoutMs: o.timeoutMs, idempotent };
}

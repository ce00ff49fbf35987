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
  // The mutation metadata decides when it is there; a hint that contradicts it is a mistake to fix, not a tie-break.
  const none = typeof idempotency === 'object' && idempotency !== null && 'none' in idempotency;
  const hinted = (['readOnlyHint', 'idempotentHint'] as const).filter((h) => options.annotations?.[h] === true);
  if (none && hinted.length)
    fail(
      `tool "${name}" says mutation.idempotency: { none } (a run cut short fails the task) but ${hinted.join(' and ')}: ` +
        `true (running it twice is safe); make them agree`,
    );
  const idempotent = idempotency ? !none : readOnly;
  return { support: o.support, asksFirst: o.asksFirst === true, ttlMs: o.ttlMs, timeoutMs: o.timeoutMs, idempotent };
}

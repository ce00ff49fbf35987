import { McpToolOptions } from '../decorators/decorator-options.interface';
import { resolveToolTask } from './task-support.rules';

const resolve = (options: Partial<McpToolOptions>) => {
  const problems: string[] = [];
  const task = resolveToolTask('job', { description: 'A job.', ...options }, (m) => problems.push(m));
  return { task, problems };
};

describe('a tool’s task option at boot', () => {
  it('is no task unless asked for', () => {
    expect(resolve({ annotations: { readOnlyHint: true } })).toEqual({ task: undefined, problems: [] });
  });

  it('takes the short form and the object form', () => {
    expect(resolve({ task: 'optional', annotations: { readOnlyHint: true } }).task).toEqual({
      support: 'optional',
      asksFirst: false,
      ttlMs: undefined,
      timeoutMs: undefined,
      idempotent: true,
    });
    expect(
      resolve({
        task: { support: 'required', asksFirst: true, ttlMs: 60_000, timeoutMs: 30_000 },
        annotations: { readOnlyHint: true },
      }).task,
    ).toMatchObject({ support: 'required', asksFirst: true, ttlMs: 60_000, timeoutMs: 30_000 });
  });

  it('reports every problem at once, each with its fix', () => {
    const { task, problems } = resolve({ task: { support: 'sometimes' as never } });
    expect(task).toBeUndefined();
    expect(problems).toEqual([expect.stringContaining("task must be 'optional', 'required'")]);
    const more = resolve({ task: { support: 'optional', ttlMs: 0, timeoutMs: 1.5, asksFirst: 'yes' as never } });
    expect(more.problems).toEqual([
      expect.stringContaining('task.asksFirst must be a boolean'),
      expect.stringContaining('task.ttlMs must be a positive integer'),
      expect.stringContaining('task.timeoutMs must be a positive integer'),
      expect.stringContaining('needs mutation.idempotency'),
    ]);
    expect(
      resolve({ task: { support: 'optional', ttlMs: 1000, timeoutMs: 1000 }, annotations: { readOnlyHint: true } })
        .problems,
    ).toEqual([expect.stringContaining('timeoutMs must be shorter than task.ttlMs')]);
  });

  it('decides whether a run cut short may run again from the idempotency metadata', () => {
    const mutation = { risk: 'low', sideEffects: 'Changes things.' } as const;
    expect(resolve({ task: 'optional', mutation: { ...mutation, idempotency: { key: 'id' } } }).task?.idempotent).toBe(
      true,
    );
    expect(
      resolve({ task: 'optional', mutation: { ...mutation, idempotency: { none: 'each run adds one' } } }).task
        ?.idempotent,
    ).toBe(false);
    expect(resolve({ task: 'optional', annotations: { readOnlyHint: true } }).task?.idempotent).toBe(true);
  });

  it('refuses a hint that contradicts idempotency: { none } instead of letting either win', () => {
    const mutation = {
      risk: 'low',
      sideEffects: 'Changes things.',
      idempotency: { none: 'each run adds one' },
    } as const;
    for (const hint of ['idempotentHint', 'readOnlyHint'] as const)
      expect(resolve({ task: 'optional', annotations: { [hint]: true }, mutation }).problems).toEqual([
        `tool "job" says mutation.idempotency: { none } (a run cut short fails the task) but ${hint}: true (running ` +
          'it twice is safe); make them agree',
      ]);
  });
});

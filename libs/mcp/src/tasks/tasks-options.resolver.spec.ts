import { resolveTasksOptions } from './tasks-options.resolver';

describe('task options', () => {
  it('has documented defaults', () => {
    expect(resolveTasksOptions(undefined, {}, 'memory')).toEqual({
      ttlMs: 3_600_000,
      maxTtlMs: 86_400_000,
      pollIntervalMs: 1_000,
      timeoutMs: 1_800_000,
      maxOpenPerSubject: 20,
      maxOpen: 1_000,
      maxKeptPerSubject: 100,
      maxKept: 10_000,
      maxBytes: 1_048_576,
      maxBytesPerSubject: 8_388_608,
      maxStoreBytes: 67_108_864,
      maxRunningPerSubject: 4,
      inputTimeoutMs: 600_000,
      concurrency: 8,
      lockMs: 30_000,
      worker: true,
    });
  });

  it('reads the environment, the option winning', () => {
    const env = {
      MCP_TASK_TTL_MS: '120000',
      MCP_MAX_TASKS: '5',
      MCP_TASK_WORKER: 'false',
      MCP_TASK_TIMEOUT_MS: '60000',
      MCP_MAX_KEPT_TASKS_PER_SUBJECT: '50',
      MCP_MAX_TASK_BYTES: '65536',
      MCP_MAX_TASK_BYTES_PER_SUBJECT: '131072',
      MCP_MAX_TASK_STORE_BYTES: '262144',
    };
    expect(resolveTasksOptions({ maxOpen: 7 }, env, 'redis')).toMatchObject({
      ttlMs: 120_000,
      maxOpen: 7,
      worker: false,
      timeoutMs: 60_000,
      maxKeptPerSubject: 50,
      maxBytes: 65_536,
      maxBytesPerSubject: 131_072,
      maxStoreBytes: 262_144,
    });
  });

  it('stops the boot on a value that cannot work, saying why', () => {
    expect(() => resolveTasksOptions({ concurrency: 0 }, {}, 'memory')).toThrow(
      'tasks.concurrency must be a positive integer',
    );
    expect(() => resolveTasksOptions({ ttlMs: 1000, timeoutMs: 5000 }, {}, 'memory')).toThrow(
      'shorter than tasks.ttlMs',
    );
    expect(() => resolveTasksOptions({ ttlMs: 100_000_000 }, {}, 'memory')).toThrow('must not exceed tasks.maxTtlMs');
    expect(() => resolveTasksOptions({ worker: false }, {}, 'memory')).toThrow('needs the Redis store');
    expect(() => resolveTasksOptions({ maxKeptPerSubject: 5 }, {}, 'memory')).toThrow(
      'must be at least tasks.maxOpenPerSubject and tasks.maxOpen',
    );
    expect(() => resolveTasksOptions({ maxBytesPerSubject: 1_000 }, {}, 'memory')).toThrow(
      'tasks.maxBytesPerSubject must be at least tasks.maxBytes',
    );
    expect(() => resolveTasksOptions({ maxStoreBytes: 2_000_000 }, {}, 'memory')).toThrow(
      'tasks.maxStoreBytes at least tasks.maxBytesPerSubject',
    );
  });
});

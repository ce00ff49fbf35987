import { McpTaskRecord } from '../stores/task.store';
import { sessionEraTask, sessionEraTaskResult, modernTask } from './task-wire';
import { taskRecordFixture } from './task-record.fixture';

const record = (over: Partial<McpTaskRecord> = {}) =>
  taskRecordFixture({
    createdAt: Date.UTC(2026, 0, 1),
    lastUpdatedAt: Date.UTC(2026, 0, 1, 0, 0, 5),
    deadline: 0,
    answers: { secret: { action: 'accept' } },
    attempts: 1,
    ...over,
  });

describe('tasks on the wire', () => {
  it('2026-07-28: Task fields only on the handle; what the status carries on tasks/get; never answers or owner', () => {
    const handle = modernTask(record({ statusMessage: 'half way' }), false);
    expect(handle).toEqual({
      taskId: 't1',
      status: 'working',
      statusMessage: 'half way',
      createdAt: '2026-01-01T00:00:00.000Z',
      lastUpdatedAt: '2026-01-01T00:00:05.000Z',
      ttlMs: 60_000,
      pollIntervalMs: 1_000,
    });
    const asking = record({
      status: 'input_required',
      inputRequests: { q: { method: 'elicitation/create', params: {} } },
    });
    expect(modernTask(asking, true).inputRequests).toEqual(asking.inputRequests);
    expect(modernTask(record({ status: 'completed', result: { content: [] } }), true).result).toEqual({ content: [] });
    expect(modernTask(record({ status: 'failed', error: { code: -32603, message: 'x' } }), true).error).toEqual({
      code: -32603,
      message: 'x',
    });
    expect(JSON.stringify(modernTask(asking, true))).not.toMatch(/alice|secret/);
  });

  it('2025-11-25: ttl and pollInterval; tasks/result is the call’s result tied to its task', () => {
    expect(sessionEraTask(record())).toMatchObject({ taskId: 't1', ttl: 60_000, pollInterval: 1_000 });
    expect(sessionEraTaskResult(record({ result: { content: [], _meta: { a: 1 } } }))).toEqual({
      content: [],
      _meta: { a: 1, 'io.modelcontextprotocol/related-task': { taskId: 't1' } },
    });
  });
});

import { McpTaskRecord } from '../stores/task.store';

/**
 * A working task with every required field, for the tasks specs: `over` sets what a test is about.
 * @internal
 */
export const taskRecordFixture = (over: Partial<McpTaskRecord> = {}): McpTaskRecord => ({
  id: 't1',
  owner: 'alice',
  tool: 'job',
  arguments: {},
  caller: { protocolVersion: '2026-07-28', transport: 'http', clientCapabilities: {} },
  status: 'working',
  createdAt: Date.now(),
  lastUpdatedAt: Date.now(),
  ttlMs: 60_000,
  pollIntervalMs: 1_000,
  deadline: Date.now() + 30_000,
  answers: {},
  inputRequests: {},
  asked: [],
  attempts: 0,
  ...over,
});

/** Caps no spec reaches unless it means to. @internal */
export const roomyTaskCaps = { perOwner: 10, total: 10, keptPerOwner: 100, keptTotal: 100 };

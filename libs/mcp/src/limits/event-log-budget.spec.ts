import { EventLogBudget } from './event-log-budget';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';

const budget = (perSession: number, perSubject: number) =>
  new EventLogBudget({
    limits: { eventLogBytesPerSession: perSession, eventLogBytesPerSubject: perSubject },
  } as unknown as ResolvedMcpOptions);

describe('EventLogBudget', () => {
  afterEach(() => jest.useRealTimers());

  it('keeps events until the session has used its bytes; other sessions go on', () => {
    const b = budget(1_000, 10_000);
    expect(b.keep('s1', 'alice', 600)).toBe(true);
    expect(b.keep('s1', 'alice', 500)).toBe(false);
    expect(b.keep('s1', 'alice', 400)).toBe(true);
    expect(b.keep('s2', 'alice', 900)).toBe(true);
  });

  it("bounds a caller's sessions together", () => {
    const b = budget(1_000, 1_500);
    expect(b.keep('s1', 'alice', 900)).toBe(true);
    expect(b.keep('s2', 'alice', 900)).toBe(false);
    expect(b.keep('s3', 'bob', 900)).toBe(true);
  });

  it('frees bytes as the five-minute window slides', () => {
    jest.useFakeTimers({ now: 0 });
    const b = budget(1_000, 10_000);
    expect(b.keep('s1', 'alice', 1_000)).toBe(true);
    expect(b.keep('s1', 'alice', 1)).toBe(false);
    jest.setSystemTime(5 * 60_000 + 150_000); // half of the previous window still counts: 500 bytes
    expect(b.keep('s1', 'alice', 600)).toBe(false);
    expect(b.keep('s1', 'alice', 400)).toBe(true);
    jest.setSystemTime(20 * 60_000);
    expect(b.keep('s1', 'alice', 1_000)).toBe(true);
  });
});

import { InMemorySessionStore } from './in-memory-session.store';
import { McpSessionRecord } from './session.store';

const record = (id: string): McpSessionRecord => ({
  id,
  protocolVersion: '2025-11-25',
  clientCapabilities: {},
  logLevel: 'info',
  subscriptions: [],
  createdAt: Date.now(),
});

describe('InMemorySessionStore', () => {
  afterEach(() => jest.useRealTimers());

  it('expires records ttlMs after their last save or touch', async () => {
    jest.useFakeTimers();
    const store = new InMemorySessionStore();
    await store.save(record('a'), 1_000);
    jest.advanceTimersByTime(800);
    expect(await store.touch('a', 1_000)).toBe(true);
    jest.advanceTimersByTime(800);
    expect(await store.get('a')).toMatchObject({ id: 'a' });
    jest.advanceTimersByTime(300);
    expect(await store.get('a')).toBeUndefined();
    expect(await store.touch('a', 1_000)).toBe(false);
  });

  it('hands out copies: changing what get() returned changes nothing stored', async () => {
    const store = new InMemorySessionStore();
    await store.save(record('a'), 60_000);
    (await store.get('a'))!.subscriptions.push('x://y');
    expect((await store.get('a'))!.subscriptions).toEqual([]);
  });

  it('sweeps expired records a slice at a time on writes', async () => {
    jest.useFakeTimers();
    const store = new InMemorySessionStore();
    for (let i = 0; i < 2_500; i++) await store.save(record(`s${i}`), 1_000);
    jest.advanceTimersByTime(2_000);
    await store.save(record('new-1'), 60_000);
    expect(store.size).toBe(2_501 - 1_000);
    jest.advanceTimersByTime(1_000);
    await store.save(record('new-2'), 60_000);
    jest.advanceTimersByTime(1_000);
    await store.save(record('new-3'), 60_000);
    expect(store.size).toBe(3);
  });
});

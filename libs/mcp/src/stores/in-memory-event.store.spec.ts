import { InMemoryEventStore } from './in-memory-event.store';

const msg = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: {} });

describe('InMemoryEventStore', () => {
  it('keeps at most maxCompleteStreamsPerSession finished streams per session, dropping the oldest first', async () => {
    const store = new InMemoryEventStore(1_000, 60_000, 100);
    const firstIds: string[] = [];
    for (let i = 0; i < 30_000; i++) {
      store.open(`s${i}`, 'busy');
      firstIds.push(store.append(`s${i}`, msg));
      store.complete(`s${i}`);
    }
    expect(store.size).toBe(100);
    expect(await store.replayAfter(firstIds[0].replace(/_1$/, '_0'), 'busy')).toBeUndefined();
    expect(await store.replayAfter('s29999_0', 'busy')).toEqual({
      streamId: 's29999',
      complete: true,
      events: [['s29999_1', msg]],
    });
  });

  it("keeps open streams whatever their number, and drops only the ended session's streams", async () => {
    const store = new InMemoryEventStore(1_000, 60_000, 2);
    for (let i = 0; i < 5; i++) store.open(`a${i}`, 'A');
    store.open('b0', 'B');
    store.append('b0', msg);
    expect(store.size).toBe(6);
    store.dropSession('A');
    expect(store.size).toBe(1);
    expect(await store.replayAfter('b0_0', 'B')).toEqual({ streamId: 'b0', complete: false, events: [['b0_1', msg]] });
    expect(await store.replayAfter('b0_0', 'A')).toBeUndefined();
  });

  it('expires finished streams after the TTL a slice at a time', () => {
    jest.useFakeTimers();
    try {
      const store = new InMemoryEventStore(1_000, 5_000, 10_000);
      for (let i = 0; i < 2_500; i++) {
        store.open(`x${i}`, `session-${i}`);
        store.complete(`x${i}`);
      }
      store.open('live', 'L');
      jest.advanceTimersByTime(6_000);
      // Each open() sweeps at most 1,000 streams, at most once a second.
      store.open('t1', 'T');
      expect(store.size).toBe(2_502 - 1_000);
      jest.advanceTimersByTime(1_000);
      store.open('t2', 'T');
      jest.advanceTimersByTime(1_000);
      store.open('t3', 'T');
      expect(store.size).toBe(4); // live, t1, t2, t3: open streams never expire
    } finally {
      jest.useRealTimers();
    }
  });
});

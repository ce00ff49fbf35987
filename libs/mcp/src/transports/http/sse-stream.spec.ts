import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { SseStream } from './sse-stream';
import { InMemoryEventStore } from '../../stores/in-memory-event.store';

/** A response that records writes and, like Node's, emits 'error' on a write after end. */
class FakeResponse extends EventEmitter {
  chunks: string[] = [];
  writableEnded = false;
  destroyed = false;
  writeHead() {
    return this;
  }
  write(chunk: string) {
    if (this.writableEnded) this.emit('error', new Error('write after end'));
    this.chunks.push(chunk);
    return true;
  }
  end() {
    this.writableEnded = true;
    return this;
  }
}

describe('SseStream', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('never writes to an ended connection (a keepalive after end once crashed the process)', () => {
    const store = new InMemoryEventStore();
    const stream = new SseStream(store, 's1');
    const res = new FakeResponse();
    stream.attach(res as unknown as ServerResponse, {}, 1000);
    res.end(); // the connection ends without a 'close' event yet
    expect(() => jest.advanceTimersByTime(60_000)).not.toThrow();
    expect(stream.send({ jsonrpc: '2.0', method: 'notifications/message' })).toBe(true);
    expect(res.chunks.filter((c) => c.includes('keepalive'))).toHaveLength(0);
  });

  it('stores events while detached and replays them after the last seen id', async () => {
    const store = new InMemoryEventStore();
    const stream = new SseStream(store, 's1');
    const res = new FakeResponse();
    stream.attach(res as unknown as ServerResponse, {}, 1000);
    stream.send({ jsonrpc: '2.0', method: 'a' });
    res.emit('close');
    stream.send({ jsonrpc: '2.0', method: 'b' });
    const found = await store.replayAfter(`${stream.id}_1`, 's1');
    expect(found).toMatchObject({ streamId: stream.id, complete: false });
    expect(found!.events.map(([, json]) => (JSON.parse(json) as { method: string }).method)).toEqual(['b']);
    expect(await store.replayAfter(`${stream.id}_1`, 'other-session')).toBeUndefined();
  });
});

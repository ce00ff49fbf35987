import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { LegacySseStream, sseEvent } from './legacy-sse.stream';

/** Just enough of an Express response to watch what the stream writes. */
class FakeResponse extends EventEmitter {
  status = 0;
  headers: Record<string, string> = {};
  chunks: string[] = [];
  writableEnded = false;
  destroyed = false;
  writeHead(status: number, headers: Record<string, string>) {
    this.status = status;
    this.headers = headers;
    return this;
  }
  write(chunk: string) {
    this.chunks.push(chunk);
    return true;
  }
  end() {
    this.writableEnded = true;
    this.emit('close');
  }
  /** The client goes away. */
  drop() {
    this.destroyed = true;
    this.emit('close');
  }
}

describe('LegacySseStream', () => {
  const open = () => {
    const res = new FakeResponse();
    const onDisconnect = jest.fn();
    const stream = new LegacySseStream(onDisconnect);
    stream.open(res as unknown as ServerResponse, '/messages?sessionId=s1');
    return { res, stream, onDisconnect };
  };

  it('starts with the endpoint event, then frames every message as event: message', () => {
    const { res, stream } = open();
    expect(res.status).toBe(200);
    expect(res.headers['Content-Type']).toBe('text/event-stream');
    expect(res.chunks[0]).toBe('event: endpoint\ndata: /messages?sessionId=s1\n\n');
    expect(stream.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } })).toBe(true);
    expect(stream.sendSerialised('{"jsonrpc":"2.0","id":1,"result":{}}')).toBe(true);
    expect(res.chunks.slice(1)).toEqual([
      'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}\n\n',
      'event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n',
    ]);
    expect(stream.connected).toBe(true);
  });

  it('splits line breaks in data into data lines', () => {
    expect(sseEvent('message', '{\n"a":1\r\n}')).toBe('event: message\ndata: {\ndata: "a":1\ndata: }\n\n');
  });

  it('reports a client disconnect once, then takes no more messages', () => {
    const { res, stream, onDisconnect } = open();
    res.drop();
    expect(onDisconnect).toHaveBeenCalledTimes(1);
    expect(stream.connected).toBe(false);
    expect(stream.send({ jsonrpc: '2.0', method: 'ping', id: 1 })).toBe(false);
  });

  it('ends from the server side without reporting a disconnect', () => {
    const { res, stream, onDisconnect } = open();
    stream.end();
    expect(res.writableEnded).toBe(true);
    expect(onDisconnect).not.toHaveBeenCalled();
    expect(stream.sendSerialised('{}')).toBe(false);
  });

  it('writes keepalive comments while open', () => {
    jest.useFakeTimers();
    try {
      const { res, stream } = open();
      jest.advanceTimersByTime(25_000);
      expect(res.chunks.at(-1)).toBe(': keepalive\n\n');
      stream.end();
      const written = res.chunks.length;
      jest.advanceTimersByTime(60_000);
      expect(res.chunks.length).toBe(written);
    } finally {
      jest.useRealTimers();
    }
  });
});

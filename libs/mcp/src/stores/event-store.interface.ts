import { JsonRpcMessage } from '../protocol/json-rpc';

/**
 * Keeps the events of SSE streams so a client can resume with `Last-Event-ID`. Event ids name
 * their stream, so a replay never crosses streams.
 */
export interface McpEventStore {
  /** Stores a message on a stream and returns its event id. */
  append(streamId: string, message: JsonRpcMessage): string;
  /** Marks a stream complete (its response was sent); complete streams are kept for a while for replays. */
  complete(streamId: string): void;
  /**
   * Calls `send` for every event after `lastEventId` on the same stream, and returns that stream's
   * id and whether it is complete; undefined when the id is unknown, expired or of another session.
   */
  replayAfter(
    lastEventId: string,
    sessionId: string,
    send: (eventId: string, message: JsonRpcMessage) => void,
  ): { streamId: string; complete: boolean } | undefined;
  /** Registers a stream before its first event. */
  open(streamId: string, sessionId: string): void;
  /** Forgets every stream of a session. */
  dropSession(sessionId: string): void;
  /**
   * Readiness probe (`GET /ready`): resolves when the store can serve, rejects otherwise. Optional: without it the
   * store counts as reachable.
   */
  ping?(): Promise<void>;
}

/** Injection token of the {@link McpEventStore}. */
export const MCP_EVENT_STORE = Symbol('MCP_EVENT_STORE');

interface StoredStream {
  sessionId: string;
  events: { id: string; message: JsonRpcMessage }[];
  seq: number;
  complete: boolean;
  touched: number;
}

/**
 * The default store: bounded per stream (oldest events dropped first); a complete stream is kept
 * `ttlMs` after its last activity for late resumes, an open one until its session ends.
 */
export class InMemoryEventStore implements McpEventStore {
  private readonly streams = new Map<string, StoredStream>();
  private lastSweep = Date.now();

  constructor(
    private readonly maxEventsPerStream = 1_000,
    private readonly ttlMs = 5 * 60_000,
  ) {}

  open(streamId: string, sessionId: string): void {
    this.sweep();
    this.streams.set(streamId, { sessionId, events: [], seq: 0, complete: false, touched: Date.now() });
  }

  append(streamId: string, message: JsonRpcMessage): string {
    let stream = this.streams.get(streamId);
    if (!stream) {
      // Only happens after dropSession; keep ids unique rather than repeating `_0`.
      stream = { sessionId: '', events: [], seq: 0, complete: false, touched: Date.now() };
      this.streams.set(streamId, stream);
    }
    const id = `${streamId}_${++stream.seq}`;
    stream.events.push({ id, message });
    if (stream.events.length > this.maxEventsPerStream) stream.events.shift();
    stream.touched = Date.now();
    return id;
  }

  complete(streamId: string): void {
    const stream = this.streams.get(streamId);
    if (stream) stream.complete = true;
  }

  replayAfter(lastEventId: string, sessionId: string, send: (eventId: string, message: JsonRpcMessage) => void) {
    const cut = lastEventId.lastIndexOf('_');
    if (cut <= 0) return undefined;
    const streamId = lastEventId.slice(0, cut);
    const seq = Number(lastEventId.slice(cut + 1));
    const stream = this.streams.get(streamId);
    if (!stream || stream.sessionId !== sessionId || !Number.isInteger(seq)) return undefined;
    for (const event of stream.events) {
      if (Number(event.id.slice(cut + 1)) > seq) send(event.id, event.message);
    }
    stream.touched = Date.now();
    return { streamId, complete: stream.complete };
  }

  dropSession(sessionId: string): void {
    for (const [id, s] of this.streams) if (s.sessionId === sessionId) this.streams.delete(id);
  }

  /** In process: always reachable. */
  async ping(): Promise<void> {}

  private sweep(): void {
    const now = Date.now();
    if (now - this.lastSweep < 10_000) return;
    this.lastSweep = now;
    // Open streams (a quiet GET stream, a call waiting on the client) live until their session ends.
    for (const [id, s] of this.streams) if (s.complete && now - s.touched > this.ttlMs) this.streams.delete(id);
  }
}

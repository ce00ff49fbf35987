import { McpEventStore, McpReplay } from './event.store';
import { SlicedSweep } from './sliced-sweep';

interface StoredStream {
  sessionId: string;
  events: { id: string; json: string }[];
  seq: number;
  complete: boolean;
  touched: number;
}

/**
 * The default store: bounded per stream (oldest events dropped first) and per session (at most
 * `maxCompleteStreamsPerSession` finished streams, oldest dropped first); a complete stream is kept `ttlMs` after
 * its last activity for late resumes, an open one until its session ends. Streams are indexed by session, so
 * ending a session costs its own streams only, and expiry is swept a slice at a time.
 */
export class InMemoryEventStore implements McpEventStore {
  private readonly streams = new Map<string, StoredStream>();
  /** Stream ids per session; finished ones in the order they finished (a Set keeps insertion order). */
  private readonly bySession = new Map<string, { open: Set<string>; complete: Set<string> }>();
  /** Finished streams past their TTL go; open ones (a quiet GET stream, a call waiting) live until the session ends. */
  private readonly expiry = new SlicedSweep(this.streams, (id, s, now) => {
    if (!s.complete || now - s.touched <= this.ttlMs) return;
    this.streams.delete(id);
    this.bySession.get(s.sessionId)?.complete.delete(id);
  });

  constructor(
    private readonly maxEventsPerStream = 1_000,
    private readonly ttlMs = 5 * 60_000,
    private readonly maxCompleteStreamsPerSession = 100,
  ) {}

  open(streamId: string, sessionId: string): void {
    this.expiry.run();
    this.streams.set(streamId, { sessionId, events: [], seq: 0, complete: false, touched: Date.now() });
    this.indexOf(sessionId).open.add(streamId);
  }

  append(streamId: string, json: string): string {
    let stream = this.streams.get(streamId);
    if (!stream) {
      // Only happens after dropSession; keep ids unique rather than repeating `_0`. Such a stream belongs to no
      // session, so no replay ever finds it; it is swept as soon as it completes.
      stream = { sessionId: '', events: [], seq: 0, complete: false, touched: Date.now() };
      this.streams.set(streamId, stream);
    }
    const id = `${streamId}_${++stream.seq}`;
    stream.events.push({ id, json });
    if (stream.events.length > this.maxEventsPerStream) stream.events.shift();
    stream.touched = Date.now();
    return id;
  }

  complete(streamId: string): void {
    const stream = this.streams.get(streamId);
    if (!stream || stream.complete) return;
    stream.complete = true;
    const index = this.bySession.get(stream.sessionId);
    if (!index) return;
    index.open.delete(streamId);
    index.complete.add(streamId);
    // A session that finishes streams without end keeps only its latest ones for replay.
    if (index.complete.size > this.maxCompleteStreamsPerSession) {
      const oldest = index.complete.values().next().value as string;
      index.complete.delete(oldest);
      this.streams.delete(oldest);
    }
  }

  async replayAfter(lastEventId: string, sessionId: string): Promise<McpReplay | undefined> {
    const cut = lastEventId.lastIndexOf('_');
    if (cut <= 0) return undefined;
    const streamId = lastEventId.slice(0, cut);
    const seq = Number(lastEventId.slice(cut + 1));
    const stream = this.streams.get(streamId);
    if (!stream || stream.sessionId !== sessionId || !Number.isInteger(seq)) return undefined;
    const events: [string, string][] = [];
    for (const event of stream.events) {
      if (Number(event.id.slice(cut + 1)) > seq) events.push([event.id, event.json]);
    }
    stream.touched = Date.now();
    return { streamId, complete: stream.complete, events };
  }

  dropSession(sessionId: string): void {
    const index = this.bySession.get(sessionId);
    if (!index) return;
    this.bySession.delete(sessionId);
    for (const id of index.open) this.streams.delete(id);
    for (const id of index.complete) this.streams.delete(id);
  }

  /** In process: always reachable. */
  async ping(): Promise<void> {}

  /** Streams held (for tests and probes). */
  get size(): number {
    return this.streams.size;
  }

  private indexOf(sessionId: string): { open: Set<string>; complete: Set<string> } {
    let index = this.bySession.get(sessionId);
    if (!index) this.bySession.set(sessionId, (index = { open: new Set(), complete: new Set() }));
    return index;
  }
}

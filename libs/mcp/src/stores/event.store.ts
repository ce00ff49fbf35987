/** What a `Last-Event-ID` resume replays. */
export interface McpReplay {
  streamId: string;
  complete: boolean;
  /** Event id and the message as JSON (as it was stored), in order: a replay is written without serialising again. */
  events: [string, string][];
}

/**
 * Keeps the events of SSE streams so a client can resume with `Last-Event-ID`. Event ids name
 * their stream, so a replay never crosses streams.
 */
export interface McpEventStore {
  /**
   * Stores a message, serialised as JSON once by its stream, and returns its event id at once (a shared store writes
   * in the background, so streaming never waits on it).
   */
  append(streamId: string, json: string): string;
  /** Marks a stream complete (its response was sent); complete streams are kept for a while for replays. */
  complete(streamId: string): void;
  /**
   * The events after `lastEventId` on the same stream, with that stream's id and whether it is complete; undefined
   * when the id is unknown, expired or of another session.
   */
  replayAfter(lastEventId: string, sessionId: string): Promise<McpReplay | undefined>;
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

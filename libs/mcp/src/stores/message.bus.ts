/**
 * Messages between the replicas of one deployment: resource updates and list changes for streams held anywhere,
 * a cancellation or a client's answer for a call running on another replica, a session changed elsewhere. The
 * default delivers within the process; the Redis bus (`MCP_STORE=redis`) to every replica, this one included.
 */
export interface McpMessageBus {
  /** Sends `message` (JSON-serialisable) to every subscriber of `topic`, on every replica. */
  publish(topic: string, message: unknown): Promise<void>;
  /** Calls `handler` for every message published on `topic` from now on. */
  subscribe(topic: string, handler: (message: unknown) => void): Promise<void>;
  /** Readiness probe; optional. */
  ping?(): Promise<void>;
}

/** Injection token of the {@link McpMessageBus}. */
export const MCP_MESSAGE_BUS = Symbol('MCP_MESSAGE_BUS');

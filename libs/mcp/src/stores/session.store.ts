import { McpSession } from '../sessions/mcp-session';

/**
 * Where live sessions are kept. The default keeps them in memory; a shared store (Redis, in a later
 * issue) keeps their metadata so any replica can tell "expired" from "never existed".
 */
export interface McpSessionStore {
  get(id: string): McpSession | undefined;
  set(session: McpSession): void;
  delete(id: string): void;
  values(): IterableIterator<McpSession>;
  readonly size: number;
  /**
   * Readiness probe (`GET /ready`): resolves when the store can serve, rejects otherwise. Optional: without it the
   * store counts as reachable.
   */
  ping?(): Promise<void>;
}

/** Injection token of the {@link McpSessionStore}. */
export const MCP_SESSION_STORE = Symbol('MCP_SESSION_STORE');

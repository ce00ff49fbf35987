import { LoggingLevel } from '../wire/logging-level';
import { McpClientInfo } from '../wire/client-info';

/**
 * What is shared of a 2025-era HTTP session: metadata only, never live objects (streams, abort controllers,
 * timers stay with the replica that holds them). Any replica can rebuild the session from it.
 */
export interface McpSessionRecord {
  id: string;
  /** The negotiated protocol revision. */
  protocolVersion: string;
  clientInfo?: McpClientInfo;
  clientCapabilities: Record<string, unknown>;
  logLevel: LoggingLevel;
  /** Resource URIs the client subscribed to. */
  subscriptions: string[];
  /**
   * The caller the session is bound to: a token subject, or a caller without a token (anonymous listing); `key` is
   * who its session caps count it under (the subject, or `anonymous@<address>`).
   */
  owner?: { subject: string; anonymous?: boolean; key?: string };
  /** Epoch milliseconds. */
  createdAt: number;
}

/**
 * Where session metadata lives. The default keeps it in this process; a shared store (Redis) lets any replica
 * serve any session. Records expire `ttlMs` after they were last saved or touched (a sliding idle timeout).
 */
export interface McpSessionStore {
  /**
   * True when other replicas use the same store: a session held by a replica is then checked against its record at
   * most once a second (its deletion elsewhere also arrives at once on the message bus). False or absent: the
   * record is touched at most every tenth of the idle timeout.
   */
  readonly shared?: boolean;
  get(id: string): Promise<McpSessionRecord | undefined>;
  /** Creates or replaces the record, expiring `ttlMs` from now. */
  save(record: McpSessionRecord, ttlMs: number): Promise<void>;
  /** Pushes the expiry to `ttlMs` from now; false when the record is gone (expired or deleted). */
  touch(id: string, ttlMs: number): Promise<boolean>;
  delete(id: string): Promise<void>;
  /**
   * Open sessions in the deployment, of one owner `key` or all. Optional: a shared store has it so the session caps
   * hold for the deployment; without it each replica counts its own.
   */
  countOpen?(ownerKey?: string): Promise<number>;
  /**
   * Readiness probe (`GET /ready`): resolves when the store can serve, rejects otherwise. Optional: without it the
   * store counts as reachable.
   */
  ping?(): Promise<void>;
}

/** Injection token of the {@link McpSessionStore}. */
export const MCP_SESSION_STORE = Symbol('MCP_SESSION_STORE');

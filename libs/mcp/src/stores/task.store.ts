/** Where a task is in its life; `completed`, `failed` and `cancelled` are final. */
export type McpTaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** The final states: a task in one of them never changes again. */
export const TERMINAL_TASK_STATUSES: ReadonlySet<McpTaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/** A question a task is waiting on: the server-to-client request the client answers (`elicitation/create`, …). */
export interface McpTaskInputRequest {
  method: string;
  params: Record<string, unknown>;
}

/**
 * Everything needed to run a task's call again on any replica: who asked, with what client, in which era. The
 * caller's token is not kept, only what the call context exposes of it (subject, scopes, claims).
 */
export interface McpTaskCaller {
  protocolVersion: string;
  transport: 'http' | 'stdio';
  clientCapabilities: Record<string, unknown>;
  clientInfo?: { name: string; version: string; [key: string]: unknown };
  principal?: { subject: string; scopes: string[]; claims: Record<string, unknown>; allScopes?: boolean };
  /** The 2025 session that created the task (its status notifications go there). */
  sessionId?: string;
  /** The X-Request-Id of the request that created it (logs and audit). */
  requestId?: string;
  /** W3C `traceparent` of the creating call: the run's span links to it. */
  traceparent?: string;
}

/** One task as the store keeps it: the state both protocol eras project onto the wire. */
export interface McpTaskRecord {
  /** 128 random bits or more, URL-safe: the id is the only thing a client needs to reach the task. */
  id: string;
  /** Who may see and control it (the caller's subject as budgets count it); anyone else is told it does not exist. */
  owner: string;
  /** The tool it runs and the arguments it was called with (already validated). */
  tool: string;
  arguments: Record<string, unknown>;
  caller: McpTaskCaller;
  status: McpTaskStatus;
  statusMessage?: string;
  /** Epoch milliseconds. */
  createdAt: number;
  lastUpdatedAt: number;
  /** Kept this long after creation, then removed whatever its state. */
  ttlMs: number;
  pollIntervalMs: number;
  /** Epoch milliseconds after which a run still going is stopped and the task fails. */
  deadline: number;
  /** Answers gathered so far, by question key (before the task existed, and through `tasks/update`). */
  answers: Record<string, unknown>;
  /** Questions the run is waiting on now; empty unless `input_required`. */
  inputRequests: Record<string, McpTaskInputRequest>;
  /** Every question key ever asked: a key is never reused, and answers to keys not asked are ignored. */
  asked: string[];
  /** The final result (`completed`): what the call would have answered. */
  result?: Record<string, unknown>;
  /** The JSON-RPC error (`failed`). */
  error?: { code: number; message: string; data?: unknown };
  /** How many runs have started (a run cut short by a dead worker is counted). */
  attempts: number;
  /** A change of state no run has seen yet: the client asked to cancel. */
  cancelRequested?: boolean;
}

/** The fields a change may set; `status` moves only forward (never out of a final state). */
export type McpTaskPatch = Partial<
  Pick<
    McpTaskRecord,
    | 'status'
    | 'statusMessage'
    | 'inputRequests'
    | 'answers'
    | 'asked'
    | 'result'
    | 'error'
    | 'attempts'
    | 'cancelRequested'
  >
>;

/** Caps checked atomically when a task is created. */
export interface McpTaskCaps {
  /** Open (not final) tasks one owner may have in the deployment. */
  perOwner: number;
  /** Open tasks in the deployment (the queue depth). */
  total: number;
  /** Tasks one owner may have kept, in any state, until they expire: what an owner can make the store hold. */
  keptPerOwner: number;
  /** Tasks kept in the deployment, in any state. */
  keptTotal: number;
  /** Bytes one owner's kept tasks may weigh together (see {@link taskWeight}); unbounded when omitted. */
  bytesPerOwner?: number;
  /** Bytes every kept task of the deployment may weigh together; unbounded when omitted. */
  bytesTotal?: number;
}

/** The byte caps a change that makes a task heavier is checked against ({@link McpTaskStore.update}). */
export type McpTaskByteCaps = Required<Pick<McpTaskCaps, 'bytesPerOwner' | 'bytesTotal'>>;

/** Index entries, summary fields and a queued job of one task (Redis), rounded up. */
export const TASK_OVERHEAD_BYTES = 1_024;
/** Held by an open task for its status messages (256 characters) and its final error (about 5 KiB at most). */
export const TASK_OPEN_RESERVE_BYTES = 8_192;

/**
 * What a kept task counts against the byte caps: its stored JSON, plus what the store keeps beside it (index entries,
 * the queue's job), plus, while it is open, room for the small changes it may still make whatever the caps (status
 * messages, the error that ends it), so an outcome can always be recorded.
 */
export const taskWeight = (jsonBytes: number, open: boolean): number =>
  jsonBytes + TASK_OVERHEAD_BYTES + (open ? TASK_OPEN_RESERVE_BYTES : 0);

/**
 * Thrown by {@link McpTaskStore.update} when a change would make the task heavier than its owner's (`owner_bytes_full`)
 * or the deployment's (`bytes_full`) byte cap allows; nothing was written.
 */
export class McpTaskBytesRefusedError extends Error {
  constructor(readonly reason: 'owner_bytes_full' | 'bytes_full') {
    super(`task store: ${reason}`);
  }
}

/**
 * Why {@link McpTaskStore.create} refused: which cap (`owner_full`/`full` for open tasks, `owner_kept_full`/`kept_full`
 * for kept ones, `owner_bytes_full`/`bytes_full` for their weight), and for the owner's kept caps when its oldest task
 * expires (epoch ms), so the caller can be told when to retry.
 */
export interface McpTaskCreateRefusal {
  reason: 'owner_full' | 'full' | 'owner_kept_full' | 'kept_full' | 'owner_bytes_full' | 'bytes_full';
  retryAt?: number;
}

/** What a waiter needs to know whether to read a task again: a cheap read, without the record's arguments or result. */
export interface McpTaskHead {
  owner: string;
  status: McpTaskStatus;
  /** Grows with every change of the task (progress messages included). */
  revision: number;
}

/**
 * Where tasks live between the request that creates them, the run that does the work (any replica) and the requests
 * that poll, answer or cancel them (any replica). In memory by default (one process); Redis (`MCP_STORE=redis`)
 * shares them between replicas. Every change is atomic: two replicas changing one task never lose either change.
 */
export interface McpTaskStore {
  /** Stores a new task unless a cap is reached; resolves once a `get` anywhere would find it. */
  create(record: McpTaskRecord, caps: McpTaskCaps): Promise<McpTaskCreateRefusal | undefined>;
  /**
   * The task, or undefined when it never existed or has expired. With `owner`, another owner's task is undefined too,
   * and is not decoded (a stranger's guesses cost no more than an unknown id).
   */
  get(id: string, owner?: string): Promise<McpTaskRecord | undefined>;
  /** Owner, status and revision of the task, without reading the rest (waiters' periodic checks). */
  head(id: string): Promise<McpTaskHead | undefined>;
  /**
   * Applies `change` to the current record (read, changed and written atomically) unless the task is final; the
   * function returns the patch, or undefined to change nothing. It may be called more than once (each time with the
   * latest record, when another replica changed the task meanwhile), so it must have no side effects. Resolves with
   * the record after the change, the record unchanged (final, or nothing to do), or undefined when it is unknown. With
   * `caps`, a change that makes the task heavier ({@link taskWeight}) past its owner's or the deployment's bytes is
   * refused with {@link McpTaskBytesRefusedError}; every change counts its weight, checked or not.
   */
  update(
    id: string,
    change: (current: McpTaskRecord) => McpTaskPatch | undefined,
    caps?: McpTaskByteCaps,
  ): Promise<McpTaskRecord | undefined>;
  /** One page of an owner's tasks, newest first; `cursor` is the opaque position a previous page returned. */
  list(owner: string, cursor: string | undefined, limit: number): Promise<{ tasks: McpTaskRecord[]; next?: string }>;
  /** Open tasks of `owner` (or of the deployment when omitted). */
  countOpen(owner?: string): Promise<number>;
  /** Readiness probe; optional. */
  ping?(): Promise<void>;
}

/** Injection token of the {@link McpTaskStore}. */
export const MCP_TASK_STORE = Symbol('MCP_TASK_STORE');

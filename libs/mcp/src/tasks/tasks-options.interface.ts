/** Module-wide task settings (`McpModule.forRoot({ tasks })`); each has an environment variable and a default. */
export interface McpTasksOptions {
  /** How long a task and its result are kept after creation (`MCP_TASK_TTL_MS`, 1 hour). */
  ttlMs?: number;
  /** The longest a tool's `task.ttlMs` may be (`MCP_TASK_MAX_TTL_MS`, 24 hours); a 2025 `task.ttl` only shortens. */
  maxTtlMs?: number;
  /** The polling interval suggested to clients (`MCP_TASK_POLL_INTERVAL_MS`, 1 second). */
  pollIntervalMs?: number;
  /** Gives up on a run after this long (`MCP_TASK_TIMEOUT_MS`, 30 minutes); a tool may set its own. */
  timeoutMs?: number;
  /** Open tasks one subject may have in the deployment (`MCP_MAX_TASKS_PER_SUBJECT`, 20). */
  maxOpenPerSubject?: number;
  /** Open tasks in the deployment, queued or running: the queue's depth (`MCP_MAX_TASKS`, 1,000). */
  maxOpen?: number;
  /** Tasks one replica runs at once (`MCP_TASK_CONCURRENCY`, 8). */
  concurrency?: number;
  /**
   * How soon a dead worker's tasks are handed on (`MCP_TASK_LOCK_MS`, 30 s; Redis store): a running task's lock
   * lapses this long after its worker stopped renewing it, and another worker takes the task over.
   */
  lockMs?: number;
  /**
   * Whether this replica runs tasks (`MCP_TASK_WORKER`, true). `false` on the replicas that only answer requests
   * when a separate worker deployment of the same app runs them (Redis store only).
   */
  worker?: boolean;
}

/** @internal */
export type ResolvedTasksOptions = Required<McpTasksOptions>;

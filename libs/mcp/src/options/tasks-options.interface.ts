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
  /**
   * Tasks one subject may have kept, in any state, until they expire (`MCP_MAX_KEPT_TASKS_PER_SUBJECT`, 100): a
   * finished or cancelled task keeps its record (arguments, result) for its `ttlMs`, so this bounds what one caller can
   * make the store hold. At least `maxOpenPerSubject`.
   */
  maxKeptPerSubject?: number;
  /** Tasks kept in the deployment, in any state (`MCP_MAX_KEPT_TASKS`, 10,000); at least `maxOpen`. */
  maxKept?: number;
  /**
   * Bytes one task may keep (`MCP_MAX_TASK_BYTES`, 1 MiB), counted twice: its arguments, caller and answers together
   * (more is refused with `-32602`, `task_too_large`), and its result (cut to fit, with the same visible marker as
   * `limits.maxResultBytes`). A kept task takes at most about twice this.
   */
  maxBytes?: number;
  /**
   * Tasks of one subject running at once in the deployment (`MCP_MAX_RUNNING_TASKS_PER_SUBJECT`, 4); its other open
   * tasks wait in the queue, so one caller cannot take every worker's places.
   */
  maxRunningPerSubject?: number;
  /**
   * How long a run waits for the answer to a question it asked (`MCP_TASK_INPUT_TIMEOUT_MS`, 10 minutes; at most the
   * task's time limit): past it the question fails with `-32004` in the tool, which may catch it, and the run's
   * worker place is not held longer.
   */
  inputTimeoutMs?: number;
  /**
   * Bytes one subject's kept tasks may take together, in any state, until they expire
   * (`MCP_MAX_TASK_BYTES_PER_SUBJECT`, 8 MiB): arguments, caller, questions, answers and results, plus a fixed share
   * per task for what the store keeps beside it. Past it a creation, an answer, a question or a result is refused
   * (`-32003`, `too_many_task_bytes`). At least `maxBytes`.
   */
  maxBytesPerSubject?: number;
  /**
   * Bytes every kept task of the deployment may take together (`MCP_MAX_TASK_STORE_BYTES`, 64 MiB): sized to stay well
   * below the Redis the project ships (`maxmemory 200mb`), beside sessions, event logs and limits. Past it `-32003`,
   * `task_store_full`. At least `maxBytesPerSubject`.
   */
  maxStoreBytes?: number;
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

/** Limits enforced in the default configuration. */
export interface McpLimits {
  /** Per-call timeout of a tool; `@McpTool({ timeoutMs })` overrides it. Default 30 s. Env `MCP_TOOL_TIMEOUT_MS`. */
  toolTimeoutMs?: number;
  /** Largest tool result; larger ones are truncated with a visible flag. Default 10 MiB. Env `MCP_MAX_RESULT_BYTES`. */
  maxResultBytes?: number;
  /**
   * Calls (tools/call, prompts/get, resources/read) per subject per minute. Default 600. Env
   * `MCP_RATE_LIMIT_PER_MINUTE`.
   */
  callsPerMinute?: number;
  /**
   * JSON-RPC requests of any kind (ping and lists included; each message of a batch counts) per subject per
   * minute. Default 3,000. Env `MCP_REQUESTS_PER_MINUTE`.
   */
  requestsPerMinute?: number;
  /**
   * Deepest nesting of arrays and objects in one message (HTTP body or stdio line), checked before it is parsed; deeper
   * is `-32600` (HTTP 400, `data.reason: too_deep`). Default 64. Env `MCP_MAX_JSON_DEPTH`.
   */
  maxJsonDepth?: number;
  /** Messages in one JSON-RPC batch (2025-03-26 sessions). Default 100. Env `MCP_MAX_BATCH_SIZE`. */
  maxBatchSize?: number;
  /**
   * Bytes of one batch's answer; responses past the bound are replaced by a short `-32005` error. Default 10 MiB.
   * Env `MCP_MAX_BATCH_RESPONSE_BYTES`.
   */
  maxBatchResponseBytes?: number;
  /**
   * How long the first answer of a call with an idempotency key (`mutation.idempotency: { key, replay: true }`) is kept
   * for a repeat from the same caller. Default 1 hour. Env `MCP_IDEMPOTENCY_TTL_MS`.
   */
  idempotencyTtlMs?: number;
  /**
   * Largest answer kept for a repeat (its JSON text); a larger one is not kept, and a repeat is refused with `-32007`
   * `idempotency_answer_not_kept` instead of running again. Default 4 KiB. Env `MCP_IDEMPOTENCY_MAX_ANSWER_BYTES`.
   */
  idempotencyMaxAnswerBytes?: number;
  /**
   * Idempotency keys one caller holds at once, running or kept (for the whole deployment with a shared store). Default
   * 200. Env `MCP_IDEMPOTENCY_KEYS_PER_SUBJECT`.
   */
  idempotencyKeysPerSubject?: number;
  /** Idempotency keys the deployment holds at once. Default 5,000. Env `MCP_IDEMPOTENCY_MAX_KEYS`. */
  idempotencyMaxKeys?: number;
  /** Calls running at once per subject. Default 16. Env `MCP_MAX_CONCURRENT_CALLS`. */
  maxConcurrentCalls?: number;
  /** How long calls in flight may finish after SIGTERM. Default 10 s. Env `MCP_SHUTDOWN_GRACE_MS`. */
  shutdownGraceMs?: number;
  /** Open HTTP sessions per subject. Default 100. Env `MCP_MAX_SESSIONS_PER_SUBJECT`. */
  maxSessionsPerSubject?: number;
  /** Open HTTP sessions in the process. Default 10,000. Env `MCP_MAX_SESSIONS`. */
  maxSessions?: number;
  /**
   * Long-lived streams open in the process (2025 GET streams, `subscriptions/listen`, legacy `GET /sse`); about
   * 0.2 MB each. Default 1,000. Env `MCP_MAX_STREAMS`.
   */
  maxStreams?: number;
  /**
   * Long-lived streams per subject (for the whole deployment with a shared store). Default 100. Env
   * `MCP_MAX_STREAMS_PER_SUBJECT`.
   */
  maxStreamsPerSubject?: number;
  /**
   * Bytes of `Last-Event-ID` replays per subject per minute (for the whole deployment with a shared store). Default
   * 32 MiB. Env `MCP_REPLAY_BYTES_PER_MINUTE`.
   */
  replayBytesPerMinute?: number;
  /**
   * Bytes of SSE events kept for `Last-Event-ID` resumption per 2025 session over five minutes (per replica); past it
   * events are still sent but not kept. Default 16 MiB. Env `MCP_EVENT_LOG_BYTES_PER_SESSION`.
   */
  eventLogBytesPerSession?: number;
  /**
   * The same per subject, over all its sessions (per replica). Default 32 MiB. Env `MCP_EVENT_LOG_BYTES_PER_SUBJECT`.
   */
  eventLogBytesPerSubject?: number;
  /** `initialize` requests per subject per minute. Default 120. Env `MCP_INITIALIZE_PER_MINUTE`. */
  initializePerMinute?: number;
  /**
   * Connections the HTTP server holds at once; past it a new connection gets 503 and is closed. Default 10,000
   * (keep it below the process's file-descriptor limit). Env `MCP_MAX_CONNECTIONS`.
   */
  maxConnections?: number;
  /**
   * Connections one peer address holds at once; 0 = no per-source bound. Behind a reverse proxy every connection
   * has the proxy's address: set the proxy's connection budget, or 0. Default 512. Env
   * `MCP_MAX_CONNECTIONS_PER_SOURCE`.
   */
  maxConnectionsPerSource?: number;
  /**
   * Node's `server.headersTimeout`: a request whose headers take longer gets 408. Default 20 s. Env
   * `MCP_HEADERS_TIMEOUT_MS`.
   */
  headersTimeoutMs?: number;
  /** Node's `server.requestTimeout` (receiving one whole request). Default 60 s. Env `MCP_REQUEST_TIMEOUT_MS`. */
  requestTimeoutMs?: number;
  /**
   * Node's `server.keepAliveTimeout`. Default 65 s (longer than common load-balancer idle timeouts). Env
   * `MCP_KEEP_ALIVE_TIMEOUT_MS`.
   */
  keepAliveTimeoutMs?: number;
}

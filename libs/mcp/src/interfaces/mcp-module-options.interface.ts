import { InjectionToken, ModuleMetadata, OptionalFactoryDependency, Type } from '@nestjs/common';
import { McpAuthOptions } from '../auth/auth-options.interface';
import { HttpStatusProfile } from '../errors/http-status';
import { McpHealthOptions } from '../health/health-options.interface';
import { McpMetricsOptions } from '../observability/metrics-options.interface';
import { McpLoggingOptions } from '../observability/logging-options.interface';
import { McpCorporateOptions } from '../corporate/corporate-options.interface';
import { McpTasksOptions, ResolvedTasksOptions } from '../tasks/tasks-options.interface';

/** Options of `McpModule.forRoot`. */
export interface McpModuleOptions {
  /** Service name: `serverInfo.name` and the service's own resource URI scheme. */
  name: string;
  /** Semver of the service; defaults to the `version` of the nearest package.json of the app. */
  version?: string;
  title?: string;
  /** One or two sentences about the service: `serverInfo.description`, the service page, `project://version`. */
  description?: string;
  /** Shown to clients in `initialize` (`instructions`). */
  instructions?: string;
  /** Path of the Streamable HTTP endpoint. Default `/mcp`. */
  path?: string;
  /** Items per page of every list method. Default 100. */
  pageSize?: number;
  /** Idle time after which an HTTP session expires. Default 30 minutes. */
  sessionIdleTimeoutMs?: number;
  /** Hosts accepted in the `Host` header (DNS-rebinding protection). Default: loopback names. */
  allowedHosts?: string[];
  /** Origins accepted in the `Origin` header. Default: loopback origins on any port. */
  allowedOrigins?: string[];
  /** Minimum gap between two progress notifications of one call. Default 50 ms. */
  progressIntervalMs?: number;
  /** How long a server-to-client request (sampling, elicitation, roots) may wait. Default 5 minutes. */
  clientRequestTimeoutMs?: number;
  /** SSE `retry` hint sent to 2025-11-25 clients, in ms. Default 1000. */
  sseRetryMs?: number;
  /**
   * How JSON-RPC errors to 2025 sessions map to HTTP statuses; see {@link HttpStatusProfile}. Default `spec` (the
   * 2025 revisions' rule: the error in a 200 answer, so official clients get typed errors); `corporate` keeps the
   * standard v1.2 table for internal clients that rely on it. 2026-07-28 answers always follow that revision and the
   * v2.0 table. Env `MCP_HTTP_STATUS_PROFILE`.
   */
  httpStatusProfile?: HttpStatusProfile;
  /** Limits (corporate standard §14, see docs/compliance.md#s14); each also has an environment variable. */
  limits?: McpLimits;
  /** Caching hints on 2026-07-28 results (corporate v2.0 §12.3); see {@link McpCachingOptions}. */
  caching?: McpCachingOptions;
  /** Long-running tools run as tasks (docs/tasks.md); see {@link McpTasksOptions}. */
  tasks?: McpTasksOptions;
  /** Authentication of the HTTP transports (JWT/JWKS); see {@link McpAuthOptions}. */
  auth?: McpAuthOptions;
  /** Largest accepted request body or stdio line, in bytes. Default 1 MiB. */
  maxRequestBytes?: number;
  /** Serve the Streamable HTTP controller. Default true; stdio-only apps may switch it off. */
  http?: boolean;
  /**
   * Also serve the legacy HTTP+SSE transport of MCP 2024-11-05 (`GET /sse`, `POST /messages`), for
   * clients that predate Streamable HTTP. Default false, or `MCP_LEGACY_SSE=true`.
   */
  legacySse?: boolean;
  /** `GET /health` and `GET /ready` (Terminus); see {@link McpHealthOptions}. */
  health?: McpHealthOptions;
  /** Prometheus `/metrics`; see {@link McpMetricsOptions}. `false` switches metrics off. */
  metrics?: McpMetricsOptions | false;
  /** Per-call log entries and the audit channel; see {@link McpLoggingOptions}. */
  logging?: McpLoggingOptions;
  /** `agent_brief`, `agent_prompt`, `project://version`, `doc://readme`; see {@link McpCorporateOptions}. */
  corporate?: McpCorporateOptions;
  /**
   * Where shared state lives: `memory` (default; one process, nothing to set up) or `redis` (session metadata in
   * Redis, so any replica serves any session). Env `MCP_STORE`.
   */
  store?: 'memory' | 'redis';
  /** Redis for `store: 'redis'`; see {@link McpRedisOptions}. */
  redis?: McpRedisOptions;
  /** The HTML service page on `GET /`. Default true. Env `MCP_SERVICE_PAGE=false` switches it off. */
  servicePage?: boolean;
}

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

/** Factory of {@link McpModuleOptions} for `McpModule.forRootAsync`. */
export interface McpOptionsFactory {
  createMcpOptions(): McpModuleOptions | Promise<McpModuleOptions>;
}

/** Options of `McpModule.forRootAsync`. */
export interface McpModuleAsyncOptions extends Pick<ModuleMetadata, 'imports'> {
  useFactory?: (...args: never[]) => McpModuleOptions | Promise<McpModuleOptions>;
  inject?: Array<InjectionToken | OptionalFactoryDependency>;
  useClass?: Type<McpOptionsFactory>;
  useExisting?: Type<McpOptionsFactory>;
  /** Serve the HTTP controller (decided at import time, before the factory runs). Default true. */
  http?: boolean;
  /**
   * Serve the legacy HTTP+SSE transport (decided at import time, like `http`). Default false, or
   * `MCP_LEGACY_SSE=true`; a `legacySse` returned by the factory is ignored.
   */
  legacySse?: boolean;
}

/**
 * Caching hints (`ttlMs`, `cacheScope`) on the cacheable results of 2026-07-28 requests: `server/discover`, the lists
 * and `resources/read`.
 */
export interface McpCachingOptions {
  /** Freshness of `server/discover` and the lists, in ms. Default 60 000 (v2.0 §12.3). Env `MCP_LIST_TTL_MS`. */
  listTtlMs?: number;
  /** Freshness of `resources/read` results, in ms. Default 0 (re-read each time). Env `MCP_READ_TTL_MS`. */
  readTtlMs?: number;
  /**
   * `private` (default): caches must not share results across callers (lists are filtered by the caller's scopes).
   * `public` only when every caller sees the same results. Env `MCP_CACHE_SCOPE`.
   */
  cacheScope?: 'private' | 'public';
}

/** @internal Options with every default filled in. */
export type ResolvedMcpOptions = Required<
  Omit<
    McpModuleOptions,
    | 'title'
    | 'description'
    | 'instructions'
    | 'auth'
    | 'limits'
    | 'health'
    | 'metrics'
    | 'logging'
    | 'corporate'
    | 'redis'
    | 'caching'
  >
> &
  Pick<McpModuleOptions, 'title' | 'description' | 'instructions' | 'auth' | 'corporate'> & {
    limits: Required<McpLimits>;
    caching: Required<McpCachingOptions>;
    tasks: ResolvedTasksOptions;
    redis: Required<McpRedisOptions>;
    health: Required<McpHealthOptions>;
    /** `false` when metrics are off. */
    metrics: false | (Required<Omit<McpMetricsOptions, 'basicAuth'>> & Pick<McpMetricsOptions, 'basicAuth'>);
    logging: Required<McpLoggingOptions>;
  };

/**
 * Where the Redis stores connect (`store: 'redis'`). One of three shapes: `url` alone; `sentinels` (the master
 * named `sentinelName`, followed through failovers); `clusterNodes` (a Redis Cluster). With sentinels or cluster
 * nodes, `url` still gives the data nodes' credentials, database and TLS (`rediss://`).
 */
export interface McpRedisOptions {
  /** `redis://[user:password@]host:port[/db]`, `rediss://` for TLS. Env `REDIS_URL`, default `redis://127.0.0.1:6379`. */
  url?: string;
  /**
   * Prefix of every key and channel. Env `MCP_REDIS_PREFIX`, default `mcp:<name>:` (`{mcp:<name>}:` with a
   * Cluster: a hash tag puts a server's keys in one slot, which its multi-key commands need).
   */
  keyPrefix?: string;
  /** Sentinel addresses (`host:port`). Env `REDIS_SENTINELS` (comma list). */
  sentinels?: string[];
  /** The master's name at the sentinels. Env `REDIS_SENTINEL_NAME`, default `mymaster`. */
  sentinelName?: string;
  /** Cluster seed nodes (`host:port`). Env `REDIS_CLUSTER_NODES` (comma list). */
  clusterNodes?: string[];
}

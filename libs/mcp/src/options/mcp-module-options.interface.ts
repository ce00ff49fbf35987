import { InjectionToken, ModuleMetadata, OptionalFactoryDependency, Type } from '@nestjs/common';
import { McpAuthOptions } from './auth-options.interface';
import { HttpStatusProfile } from '../errors/http-status';
import { McpHealthOptions } from './health-options.interface';
import { McpMetricsOptions } from './metrics-options.interface';
import { McpLoggingOptions } from './logging-options.interface';
import { McpCorporateOptions } from './corporate-options.interface';
import { McpTasksOptions, ResolvedTasksOptions } from './tasks-options.interface';
import { McpLimits } from './limits-options.interface';
import { McpRedisOptions } from './redis-options.interface';
import { McpCachingOptions } from './caching-options.interface';
import { McpSkillsOptions } from './skills-options.interface';

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
  /**
   * Caching hints on 2026-07-28 results (corporate v2.0 §12.3, docs/compliance.md#s12); see {@link McpCachingOptions}.
   */
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
  /** Agent Skills served from a folder (docs/skills.md); see {@link McpSkillsOptions}. Default: none. */
  skills?: McpSkillsOptions;
  /**
   * MCP Apps views built by `npm run build` (docs/apps.md#building-a-view): `root` is the folder holding
   * `<name>.html` for each `@McpApp({ view: '<name>' })`, read once at boot. Env `MCP_VIEWS_DIR`, read at boot and
   * winning over the option, points a server run from its sources (an in-process test) at built views. Default: none.
   *
   * @example views: { root: `${__dirname}/../views` }
   */
  views?: { root: string };
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
    | 'skills'
    | 'views'
  >
> &
  Pick<McpModuleOptions, 'title' | 'description' | 'instructions' | 'auth' | 'corporate' | 'skills' | 'views'> & {
    limits: Required<McpLimits>;
    caching: Required<McpCachingOptions>;
    tasks: ResolvedTasksOptions;
    redis: Required<McpRedisOptions>;
    health: Required<McpHealthOptions>;
    /** `false` when metrics are off. */
    metrics: false | (Required<Omit<McpMetricsOptions, 'basicAuth'>> & Pick<McpMetricsOptions, 'basicAuth'>);
    logging: Required<McpLoggingOptions>;
  };

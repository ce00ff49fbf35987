import { ModuleMetadata, Type } from '@nestjs/common';
import { McpAuthOptions } from '../auth/auth-options.interface';

/** Options of `McpModule.forRoot`. */
export interface McpModuleOptions {
  /** Service name: `serverInfo.name` and the service's own resource URI scheme. */
  name: string;
  /** Semver of the service; defaults to the `version` of the nearest package.json of the app. */
  version?: string;
  title?: string;
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
}

/** Factory of {@link McpModuleOptions} for `McpModule.forRootAsync`. */
export interface McpOptionsFactory {
  createMcpOptions(): McpModuleOptions | Promise<McpModuleOptions>;
}

/** Options of `McpModule.forRootAsync`. */
export interface McpModuleAsyncOptions extends Pick<ModuleMetadata, 'imports'> {
  useFactory?: (...args: any[]) => McpModuleOptions | Promise<McpModuleOptions>;
  inject?: any[];
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
export type ResolvedMcpOptions = Required<Omit<McpModuleOptions, 'title' | 'instructions' | 'auth'>> &
  Pick<McpModuleOptions, 'title' | 'instructions' | 'auth'>;

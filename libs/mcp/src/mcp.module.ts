import { TASK_PROVIDERS } from './tasks/task.providers';
import { McpRefusalLog } from './observability/refusal-log';
import { McpMetrics } from './observability/mcp-metrics.service';
import { StreamLimiter } from './admission/stream-limiter';
import { EventLogBudget } from './limits/event-log-budget';
import { DynamicModule, Inject, Module, NestModule, Provider } from '@nestjs/common';
import { APP_GUARD, DiscoveryModule, HttpAdapterHost } from '@nestjs/core';
import { installRequestHook } from './http-adapter/request-hook';
import { MCP_MODULE_OPTIONS } from './mcp.constants';
import { McpModuleAsyncOptions, McpModuleOptions, McpOptionsFactory } from './options/mcp-module-options.interface';
import { legacySseEnabled, resolveMcpOptions } from './mcp-options.resolver';
import { McpExplorer } from './discovery/mcp.explorer';
import { McpPipelineFactory } from './pipeline/mcp-pipeline.factory';
import { McpRequestRunner } from './protocol/request-runner';
import { RequestStateCodec } from './pipeline/request-state.codec';
import { IdempotencyKeeper } from './pipeline/idempotency.keeper';
import { McpMetadataAccessor } from './discovery/mcp-metadata.accessor';
import { McpRegistry } from './registry/mcp.registry';
import { McpDispatcher } from './protocol/mcp.dispatcher';
import { McpSessionManager } from './sessions/mcp-session.manager';
import { McpHttpService } from './transports/http/mcp-http.service';
import { McpSessionStreams } from './transports/http/session-streams.service';
import { ModernHttpHandler } from './transports/http/modern-http.handler';
import { createMcpHttpController } from './transports/http/mcp-http.controller';
import { McpLegacySseController } from './transports/legacy-sse/legacy-sse.controller';
import { MCP_AUTH_CONFIG } from './auth/auth.constants';
import { createAuthConfig } from './auth/auth-config.factory';
import { McpJwtStrategy } from './auth/mcp-jwt.strategy';
import { McpHttpAuthGuard } from './auth/mcp-http-auth.guard';
import { McpAuthExceptionFilter } from './auth/mcp-auth.filter';
import { McpAuthLifecycle } from './auth/mcp-auth.lifecycle';
import { McpOriginGuard } from './auth/origin.guard';
import { McpOriginRefusalFilter } from './auth/origin-refusal.filter';
import { McpScopesGuard } from './pipeline/mcp-scopes.guard';
import { McpChallenge } from './auth/mcp-challenge';
import { RequestBudget } from './admission/request-budget';
import { McpAdmission } from './admission/mcp-admission.service';
import { OpenSessionCounts, SessionBudget } from './admission/session-budget';
import { SessionCount } from './sessions/session-count';
import { HttpServerTuning } from './transports/http/http-server-tuning';
import { TokenIntrospector } from './auth/token-introspector';
import { UsageResources } from './corporate/usage-resources';
import { createProtectedResourceController } from './auth/protected-resource.controller';
import { ResolvedMcpOptions } from './options/mcp-module-options.interface';
import { McpCorsMiddleware } from './transports/http/mcp-cors.middleware';
import { McpHttpEntryMiddleware } from './transports/http/mcp-http-entry.middleware';
import { McpHttpTraceMiddleware } from './observability/mcp-http-trace.middleware';
import { LegacySseService } from './transports/legacy-sse/legacy-sse.service';
import { McpStdioTransport } from './transports/stdio/mcp-stdio.transport';
import { McpNotifier } from './mcp.notifier';
import { STORE_PROVIDERS } from './stores/store.providers';
import { HEALTH_CONTROLLERS, HEALTH_PROVIDERS } from './health/health.providers';
import { SERVICE_PAGE_CONTROLLERS, SERVICE_PAGE_PROVIDERS } from './service-page/service-page.providers';
import { CORPORATE_PROVIDERS } from './corporate/corporate.providers';
import { OBSERVABILITY_CONTROLLERS, OBSERVABILITY_PROVIDERS } from './observability/observability.providers';
import { RedisConnection } from './stores/redis.connection';
import { MCP_KEY_STORE } from './stores/key.store';

const CORE_PROVIDERS: Provider[] = [
  {
    provide: MCP_AUTH_CONFIG,
    useFactory: (options: ResolvedMcpOptions) =>
      createAuthConfig(options.auth, options.name, options.http || options.legacySse),
    inject: [MCP_MODULE_OPTIONS],
  },
  McpJwtStrategy,
  McpHttpTraceMiddleware,
  McpCorsMiddleware,
  McpHttpEntryMiddleware,
  McpHttpAuthGuard,
  McpAuthExceptionFilter,
  McpOriginGuard,
  McpOriginRefusalFilter,
  McpChallenge,
  RequestBudget,
  StreamLimiter,
  SessionBudget,
  McpAdmission,
  EventLogBudget,
  SessionCount,
  { provide: OpenSessionCounts, useExisting: SessionCount },
  HttpServerTuning,
  TokenIntrospector,
  UsageResources,
  McpAuthLifecycle,
  { provide: APP_GUARD, useClass: McpScopesGuard },
  McpMetadataAccessor,
  McpExplorer,
  McpPipelineFactory,
  McpRegistry,
  McpDispatcher,
  McpRequestRunner,
  RequestStateCodec,
  IdempotencyKeeper,
  McpSessionManager,
  McpHttpService,
  McpSessionStreams,
  ModernHttpHandler,
  McpStdioTransport,
  McpNotifier,
  ...STORE_PROVIDERS,
  ...TASK_PROVIDERS,
  ...OBSERVABILITY_PROVIDERS,
  ...HEALTH_PROVIDERS,
  ...CORPORATE_PROVIDERS,
  ...SERVICE_PAGE_PROVIDERS,
];
/** Controllers served with the Streamable HTTP transport (each answers 404 when its feature is off). */
const HTTP_CONTROLLERS = (path: string) => [
  createMcpHttpController(path),
  createProtectedResourceController(path),
  ...HEALTH_CONTROLLERS,
  ...OBSERVABILITY_CONTROLLERS,
  ...SERVICE_PAGE_CONTROLLERS,
];
/** The legacy HTTP+SSE transport (2024-11-05), only when switched on. */
const legacySse = (enabled: boolean) => ({
  controllers: enabled ? [McpLegacySseController] : [],
  providers: enabled ? [LegacySseService] : [],
});
// McpRefusalLog: the access log of McpLoggerModule aggregates its 4xx lines there.
// RedisConnection and MCP_KEY_STORE: for the downstream module's token cache, shared through the same Redis.
const EXPORTS = [
  McpRegistry,
  McpNotifier,
  McpStdioTransport,
  McpSessionManager,
  McpRefusalLog,
  MCP_MODULE_OPTIONS,
  RedisConnection,
  MCP_KEY_STORE,
  // The registry downstream clients add their instruments to (McpDownstreamModule, outside this module).
  McpMetrics,
];

/**
 * The MCP platform: discovers `@McpTool`, `@McpPrompt`, `@McpResource` and `@McpResourceTemplate`
 * providers at boot and serves them over Streamable HTTP (`path`, default `/mcp`) and stdio, and
 * over the legacy HTTP+SSE transport (`/sse`, `/messages`) when `legacySse` is on.
 *
 * @example
 * @Module({ imports: [McpModule.forRoot({ name: 'orders' })], providers: [OrdersTools] })
 * export class AppModule {}
 */
@Module({})
export class McpModule implements NestModule {
  constructor(
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly adapterHost: HttpAdapterHost,
    private readonly entry: McpHttpEntryMiddleware,
  ) {}

  /**
   * Every HTTP response carries an `X-Request-Id`; the MCP endpoints also get a trace span per
   * request; they, the metadata and the service page get the Origin/Host checks and CORS before any
   * middleware or guard (see {@link McpHttpEntryMiddleware}), installed as the adapter's request hook (Nest calls
   * `configure` only for an HTTP application, before its routes are registered).
   */
  configure(): void {
    const adapter = this.adapterHost.httpAdapter;
    if (adapter && (this.options.http || this.options.legacySse))
      installRequestHook(adapter, (req, res, next) => this.entry.use(req, res, next));
  }

  static forRoot(options: McpModuleOptions): DynamicModule {
    const resolved = resolveMcpOptions(options);
    const legacy = legacySse(resolved.legacySse);
    return {
      module: McpModule,
      global: true,
      imports: [DiscoveryModule],
      controllers: [...(resolved.http ? HTTP_CONTROLLERS(resolved.path) : []), ...legacy.controllers],
      providers: [{ provide: MCP_MODULE_OPTIONS, useValue: resolved }, ...CORE_PROVIDERS, ...legacy.providers],
      exports: EXPORTS,
    };
  }

  /**
   * Options from a factory (for example from `ConfigService`). The HTTP path and whether HTTP and
   * legacy HTTP+SSE are served are decided at import time, as Nest needs controllers before
   * factories run.
   */
  static forRootAsync(options: McpModuleAsyncOptions & { path?: string }): DynamicModule {
    const legacyOn = legacySseEnabled(options.legacySse);
    const legacy = legacySse(legacyOn);
    const optionsProvider: Provider = options.useFactory
      ? {
          provide: MCP_MODULE_OPTIONS,
          useFactory: async (...args: unknown[]) =>
            resolveMcpOptions({
              ...(await options.useFactory!(...(args as never[]))),
              path: options.path,
              legacySse: legacyOn,
              http: options.http ?? true,
            }),
          inject: options.inject ?? [],
        }
      : {
          provide: MCP_MODULE_OPTIONS,
          useFactory: async (factory: McpOptionsFactory) =>
            resolveMcpOptions({
              ...(await factory.createMcpOptions()),
              path: options.path,
              legacySse: legacyOn,
              http: options.http ?? true,
            }),
          inject: [options.useExisting ?? options.useClass!],
        };
    const extra: Provider[] = options.useClass ? [{ provide: options.useClass, useClass: options.useClass }] : [];
    return {
      module: McpModule,
      global: true,
      imports: [DiscoveryModule, ...(options.imports ?? [])],
      controllers: [...(options.http === false ? [] : HTTP_CONTROLLERS(options.path ?? '/mcp')), ...legacy.controllers],
      providers: [optionsProvider, ...extra, ...CORE_PROVIDERS, ...legacy.providers],
      exports: EXPORTS,
    };
  }
}

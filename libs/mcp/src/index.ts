// Public API of `@app/mcp` (named exports only; internals stay private). Telemetry start-up has its own entry
// point, `@app/mcp/telemetry`, because it must load before everything else.

// The module and the app's main.ts
export { McpModule } from './mcp.module';
export { McpModuleOptions, McpModuleAsyncOptions, McpOptionsFactory } from './options/mcp-module-options.interface';
export { bootstrapMcpServer, McpBootstrapOptions } from './bootstrap/mcp-server.bootstrap';
export { createMcpHttpApp, McpHttpAppOptions } from './bootstrap/mcp-http-app.factory';
export { McpHttpAdapter } from './http-adapter/http-adapter';

// Decorators and what they take
export { McpTool } from './decorators/mcp-tool.decorator';
export { McpPrompt } from './decorators/mcp-prompt.decorator';
export { McpResource, McpResourceTemplate } from './decorators/mcp-resource.decorator';
export { McpCompletion } from './decorators/mcp-completion.decorator';
export { McpArgs, McpCtx } from './decorators/mcp-params.decorator';
export { McpField } from './decorators/mcp-arg-field.decorator';
export { McpScopes } from './decorators/mcp-scopes.decorator';
export { InsufficientScopeError } from './auth/insufficient-scope.error';
export {
  McpToolOptions,
  McpToolTaskOptions,
  McpToolTaskSupport,
  McpPromptOptions,
  McpResourceOptions,
  McpResourceTemplateOptions,
} from './decorators/decorator-options.interface';

// Inside a call
export { McpAskOptions, McpCallContext } from './context/call-context.interface';
export { McpPrincipal } from './auth/mcp-principal';
export { McpExecutionContext } from './context/mcp-execution-context';
export { MCP_CONTEXT_TYPE } from './mcp.constants';
export { McpNotifier } from './mcp.notifier';
export { McpRegistry } from './registry/mcp.registry';

// Errors
export {
  McpError,
  InvalidParamsError,
  ResourceNotFoundError,
  ToolExecutionError,
  ServerError,
  RateLimitedError,
  TimeoutError,
  PayloadTooLargeError,
  UpstreamUnavailableError,
  ConflictError,
} from './errors/mcp.error';
export { ErrorCode } from './wire/json-rpc';

// Store contracts (in memory by default; provide your own under the token)
export { McpSessionStore, McpSessionRecord, MCP_SESSION_STORE } from './stores/session.store';
export { McpMessageBus, MCP_MESSAGE_BUS } from './stores/message.bus';
export { McpEventStore, MCP_EVENT_STORE } from './stores/event.store';
export { McpLimitStore, MCP_LIMIT_STORE } from './stores/limit.store';
export { McpKeyStore, MCP_KEY_STORE } from './stores/key.store';
export {
  McpTaskStore,
  McpTaskRecord,
  McpTaskStatus,
  McpTaskHead,
  McpTaskCaps,
  McpTaskCreateRefusal,
  MCP_TASK_STORE,
} from './stores/task.store';
export {
  McpIdempotencyStore,
  IdempotencyClaim,
  IdempotencyClaimBounds,
  MCP_IDEMPOTENCY_STORE,
} from './stores/idempotency.store';
export { McpTaskQueue, McpTaskQueueEvents, McpTaskRun, MCP_TASK_QUEUE } from './tasks/task.queue';
export { McpTasksOptions } from './options/tasks-options.interface';

// Health, logs, audit, metrics
export { McpReadinessCheck } from './health/mcp-readiness-check.decorator';
export { McpReadinessIndicator } from './health/mcp-readiness-indicator.interface';
export { McpLoggerModule } from './observability/mcp-logger.module';
export { McpLogger } from './observability/mcp.logger';
export { McpAuditEvent, McpAuditSink, MCP_AUDIT_SINK } from './observability/mcp-audit.sink';
export { McpMetrics } from './observability/mcp-metrics.service';

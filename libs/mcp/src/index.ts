export { McpModule } from './mcp.module';
export { bootstrapMcpServer, McpBootstrapOptions } from './bootstrap/mcp-server.bootstrap';
export { createMcpHttpApp, McpHttpAppOptions } from './bootstrap/mcp-http-app.factory';
export { McpTool } from './decorators/mcp-tool.decorator';
export { McpPrompt } from './decorators/mcp-prompt.decorator';
export { McpResource, McpResourceTemplate } from './decorators/mcp-resource.decorator';
export { McpCompletion } from './decorators/mcp-completion.decorator';
export { McpArgs, McpCtx } from './decorators/mcp-params.decorator';
export { McpField, McpFieldOptions } from './decorators/mcp-arg-field.decorator';
export { McpExecutionContext } from './context/mcp-execution-context';
export { McpNotifier } from './mcp.notifier';
export { McpRegistry, McpListKind } from './registry/mcp.registry';
export { McpStdioTransport } from './transports/stdio/mcp-stdio.transport';
export { McpSessionManager } from './protocol/mcp-session.manager';
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
  McpCancelledError,
} from './errors/mcp.error';
export { HttpStatusProfile } from './errors/http-status';
export { McpLimitStore, MCP_LIMIT_STORE, InMemoryLimitStore } from './limits/limit-store.interface';
export { ErrorCode } from './protocol/json-rpc';
export { SUPPORTED_PROTOCOL_VERSIONS, LATEST_PROTOCOL_VERSION } from './protocol/protocol-version';
export { MCP_CONTEXT_TYPE, MCP_MODULE_OPTIONS } from './mcp.constants';
export { McpSessionStore, MCP_SESSION_STORE, InMemorySessionStore } from './stores/session-store.interface';
export { McpEventStore, MCP_EVENT_STORE, InMemoryEventStore } from './stores/event-store.interface';
export * from './interfaces/definitions.interface';
export * from './interfaces/call-context.interface';
export * from './interfaces/mcp-module-options.interface';
export { McpScopes } from './decorators/mcp-scopes.decorator';
export { McpAuthOptions } from './auth/auth-options.interface';
export { McpPrincipal } from './auth/mcp-principal';
export * from './health/index';
export * from './observability/index';
export * from './corporate/index';
export * from './service-page/index';
export { packageVersion } from './app-version';

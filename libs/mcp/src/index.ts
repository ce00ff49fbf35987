// Public API of `@app/mcp`: what a team needs to write providers, configure the module, bootstrap and test (named
// exports only; internals stay private). Extension points have entry points of their own, each a `*.entry.ts` file
// beside this one and listed in docs/authoring.md: `@app/mcp/stores` (store contracts, the task queue),
// `@app/mcp/health` (readiness checks), `@app/mcp/observability` (audit sink, metrics registry, log masks),
// `@app/mcp/options` (the type of each part of the module's options), `@app/mcp/telemetry` (loaded before
// everything else) and `@app/mcp/tooling` (for the repository's own tools).

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
export { McpApp } from './decorators/mcp-app.decorator';
export { McpSkill } from './decorators/mcp-skill.decorator';
export { McpArgs, McpCtx } from './decorators/mcp-params.decorator';
export { McpField } from './decorators/mcp-arg-field.decorator';
export { McpScopes } from './decorators/mcp-scopes.decorator';
export {
  McpToolOptions,
  McpToolTaskOptions,
  McpToolTaskSupport,
  McpPromptOptions,
  McpResourceOptions,
  McpResourceTemplateOptions,
  McpAppOptions,
  McpSkillFiles,
} from './decorators/decorator-options.interface';

// Inside a call
export { McpAskOptions, McpCallContext } from './context/call-context.interface';
export { McpPrincipal } from './auth/mcp-principal';
export { McpExecutionContext } from './context/mcp-execution-context';
export { MCP_CONTEXT_TYPE } from './mcp.constants';
export { McpNotifier } from './mcp.notifier';
export { McpRegistry } from './registry/mcp.registry';

// Errors a provider throws (or a guard: InsufficientScopeError)
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
export { InsufficientScopeError } from './auth/insufficient-scope.error';
export { ErrorCode } from './wire/json-rpc';

// Logs
export { McpLoggerModule } from './observability/mcp-logger.module';
export { McpLogger } from './observability/mcp.logger';

/** @internal Metadata keys and injection tokens. */
export const MCP_MODULE_OPTIONS = Symbol('MCP_MODULE_OPTIONS');
export const MCP_TOOL_METADATA = 'mcp:tool';
export const MCP_PROMPT_METADATA = 'mcp:prompt';
export const MCP_RESOURCE_METADATA = 'mcp:resource';
export const MCP_RESOURCE_TEMPLATE_METADATA = 'mcp:resource-template';
export const MCP_COMPLETION_METADATA = 'mcp:completion';
export const MCP_APP_METADATA = 'mcp:app';
export const MCP_SKILL_METADATA = 'mcp:skill';
export const MCP_ARG_FIELD_METADATA = 'mcp:arg-field';
/** Nest's own key for parameter metadata, so `createParamDecorator` works on MCP handlers too. */
export const MCP_PARAM_ARGS_METADATA = '__routeArguments__';
/** The `ExecutionContext.getType()` of every MCP call. */
export const MCP_CONTEXT_TYPE = 'mcp';
export const MCP_SCOPES_METADATA = 'mcp:scopes';

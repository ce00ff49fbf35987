/** @internal Injection token of the resolved auth configuration. */
export const MCP_AUTH_CONFIG = Symbol('MCP_AUTH_CONFIG');

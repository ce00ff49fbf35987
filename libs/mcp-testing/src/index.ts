// Public API of the testing kit (`@app/mcp-testing`): boot an app as production does, mint real tokens,
// and talk to it with the official MCP SDK client.
export { startMcpTestServer, McpTestServer, McpTestServerOptions } from './mcp-test-server';
export { McpTestClient, McpTestClientOptions, McpTestProgress, McpTestLog } from './mcp-test-client';
export { McpTestIssuer, McpTestIssuerOptions, McpTestTokenOptions } from './mcp-test-issuer';
export { McpTestTaskOutcome } from './mcp-test-tasks';

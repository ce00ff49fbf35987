/**
 * Entry point `@app/mcp-testing/issuer`: the testing kit's token issuer alone. A suite that starts its servers as
 * processes needs tokens, not the platform: importing `@app/mcp-testing` loads all of `@app/mcp` (Nest, the adapters,
 * OpenTelemetry) into the test, about a CPU second per suite file.
 *
 * @example import { McpTestIssuer } from '@app/mcp-testing/issuer';
 */
export { McpTestIssuer, McpTestIssuerOptions, McpTestTokenOptions } from './mcp-test-issuer';

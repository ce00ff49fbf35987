import { McpTestIssuer } from '@app/mcp-testing/issuer';

export type { McpTestTokenOptions as MintOptions } from '@app/mcp-testing/issuer';
export type TestIssuer = McpTestIssuer;

/** The testing kit's issuer with the desk fixture's audience and scopes as defaults. */
export const TestIssuer = {
  start: (): Promise<McpTestIssuer> =>
    McpTestIssuer.start({ audience: 'mcp:desk', scope: 'tickets:read tickets:write' }),
};

import { McpPrincipal } from './mcp-principal';

/** True when the principal holds every scope (`*`, given by development tokens, holds all). @internal */
export function hasScopes(principal: McpPrincipal, required: readonly string[]): boolean {
  return principal.scopes.has('*') || required.every((s) => principal.scopes.has(s));
}

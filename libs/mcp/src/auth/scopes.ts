import { InsufficientScopeError } from './insufficient-scope.error';
import { McpPrincipal } from './mcp-principal';

/**
 * True when the principal holds every scope (`allScopes`, only for development-issuer tokens with `*`, holds all).
 * @internal
 */
export function hasScopes(principal: McpPrincipal, required: readonly string[]): boolean {
  return principal.allScopes === true || required.every((s) => principal.scopes.has(s));
}

/**
 * For paths that do not run a handler through the pipeline (completion, subscriptions): the same
 * rule as the scopes guard. No principal (stdio, auth off) passes.
 * @internal
 */
export function assertScopes(principal: McpPrincipal | undefined, required: readonly string[] | undefined): void {
  if (!principal || !required?.length || hasScopes(principal, required)) return;
  throw new InsufficientScopeError([...required].sort());
}

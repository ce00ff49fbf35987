import { McpPrincipal } from './mcp-principal';

/*
 * Why: a downstream client must refuse to forward the caller's own bearer token (token passthrough is forbidden,
 * docs/compliance.md#s7), and a token exchange needs it as its subject token. The principal is carried typed and
 * public (`ctx.principal`), so the raw token is not put on it: it is kept beside it, in a WeakMap a tool cannot
 * reach, and dropped with the principal.
 */
const tokens = new WeakMap<McpPrincipal, string>();

/** Remembers the bearer token `principal` was decided from (the HTTP guard, once per verified token). @internal */
export function bindCallerToken(principal: McpPrincipal, token: string): void {
  tokens.set(principal, token);
}

/** The bearer token the caller authenticated with, if any (never for stdio or authentication off). @internal */
export function callerTokenOf(principal: McpPrincipal | undefined): string | undefined {
  return principal ? tokens.get(principal) : undefined;
}

/** The authenticated caller, as guards and handlers see it (`ctx.principal`, `request.user`). */
export interface McpPrincipal {
  /** `sub` of the token. */
  subject: string;
  /** Scopes from the `scope` claim (space-separated) or `scp` (array). */
  scopes: ReadonlySet<string>;
  /** Every claim of the verified token. */
  claims: Readonly<Record<string, unknown>>;
  /** Holds every scope: only tokens of the local development issuer with `scope: "*"`. */
  allScopes?: boolean;
}

/** @internal */
export function principalFromClaims(claims: Record<string, unknown>, allowWildcard = false): McpPrincipal {
  const raw = claims.scope ?? claims.scp;
  const scopes =
    typeof raw === 'string'
      ? raw.split(' ').filter(Boolean)
      : Array.isArray(raw)
        ? raw.filter((s) => typeof s === 'string')
        : [];
  return {
    subject: String(claims.sub ?? ''),
    scopes: new Set(scopes),
    claims,
    allScopes: allowWildcard && scopes.includes('*'),
  };
}

/** The caller without a token when anonymous listing is on: no subject, no scopes. @internal */
export const ANONYMOUS: McpPrincipal = Object.freeze({
  subject: '',
  scopes: new Set<string>(),
  claims: Object.freeze({}),
});

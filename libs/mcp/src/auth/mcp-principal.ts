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
  /** A caller without a token (anonymous listing on): no subject, no scopes. */
  anonymous?: boolean;
  /** Peer address of an anonymous caller: its budgets and session caps are counted per source. */
  source?: string;
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
  anonymous: true,
});

/** An anonymous caller from `source` (its peer address). @internal */
export const anonymousFrom = (source: string): McpPrincipal => Object.freeze({ ...ANONYMOUS, source });

/** True for a caller without a token. @internal */
export const isAnonymousPrincipal = (principal: McpPrincipal | undefined): boolean => principal?.anonymous === true;

/**
 * Who a caller's budgets (rates, concurrency, sessions) are counted under: the token's subject; an anonymous caller
 * per peer address, so one stranger cannot spend the budget of every caller without a token; `fallback` when
 * there is no principal at all (`stdio` for the local process, `anonymous` with authentication off).
 * @internal
 */
export function budgetSubject(principal: McpPrincipal | undefined, fallback: string): string {
  if (principal?.anonymous) return `anonymous@${principal.source ?? 'unknown'}`;
  return principal?.subject || fallback;
}

/** {@link budgetSubject} of a caller on `transport`: without a principal, `stdio` or `anonymous`. @internal */
export const callerSubject = (principal: McpPrincipal | undefined, transport: string): string =>
  budgetSubject(principal, transport === 'stdio' ? 'stdio' : 'anonymous');

/**
 * The caller of an HTTP request, as the authentication guard resolved it (`request.user`): read here and only here,
 * so every transport and check sees the same typed principal. Undefined when authentication is off.
 * @internal
 */
export const principalOf = (req: object): McpPrincipal | undefined => (req as { user?: McpPrincipal }).user;

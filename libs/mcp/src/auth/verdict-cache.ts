import { McpPrincipal } from './mcp-principal';

/**
 * Remembers verified tokens so a busy client is not re-verified on every request: one entry per
 * exact token string (never shared across tokens), kept until the token expires or the JWKS TTL
 * passes, whichever is first, and bounded in size (oldest out first).
 *
 * Entries are found by the token's last {@link KEY_CHARS} characters (a JWT's signature): a map keyed by the whole
 * token hashes its ~800 characters on every request, which a call that arrives with a new string pays each time. A
 * hit still compares the whole token, so two tokens that end alike never share a verdict (the later one verified
 * replaces the earlier).
 * @internal
 */
export class VerdictCache {
  private readonly entries = new Map<string, { token: string; principal: McpPrincipal; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(token: string): McpPrincipal | undefined {
    const key = keyOf(token);
    const entry = this.entries.get(key);
    if (!entry || entry.token !== token) return undefined;
    if (Date.now() >= entry.until) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.principal;
  }

  set(token: string, principal: McpPrincipal): void {
    const exp = typeof principal.claims.exp === 'number' ? principal.claims.exp * 1000 : Date.now();
    const until = Math.min(exp, Date.now() + this.ttlMs);
    if (until <= Date.now()) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(keyOf(token), { token, principal, until });
  }
}

/** How much of a token's end finds its entry: a signature's last 32 characters are 192 random bits. */
const KEY_CHARS = 32;
const keyOf = (token: string): string => (token.length > KEY_CHARS ? token.slice(-KEY_CHARS) : token);

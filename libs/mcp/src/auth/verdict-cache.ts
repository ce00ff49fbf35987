import { McpPrincipal } from './mcp-principal';

/**
 * Remembers verified tokens so a busy client is not re-verified on every request: one entry per
 * exact token string (never shared across tokens), kept until the token expires or the JWKS TTL
 * passes, whichever is first, and bounded in size (oldest out first).
 * @internal
 */
export class VerdictCache {
  private readonly entries = new Map<string, { principal: McpPrincipal; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(token: string): McpPrincipal | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (Date.now() >= entry.until) {
      this.entries.delete(token);
      return undefined;
    }
    return entry.principal;
  }

  set(token: string, principal: McpPrincipal): void {
    const exp = typeof principal.claims.exp === 'number' ? principal.claims.exp * 1000 : Date.now();
    const until = Math.min(exp, Date.now() + this.ttlMs);
    if (until <= Date.now()) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(token, { principal, until });
  }
}

import { CachedToken, DEFAULT_MAX_CACHED_TOKENS, TokenCache, TokenWait, withinDeadline } from './token.cache';

/**
 * One process's tokens for one downstream (no `store: 'redis'`): a Map bounded to `maxEntries` (expired entries go
 * first, then the least recently stored), and one fetch per key at a time however many calls wait.
 */
export class InMemoryTokenCache implements TokenCache {
  private readonly tokens = new Map<string, CachedToken>();
  private readonly pending = new Map<string, Promise<CachedToken>>();

  constructor(
    private readonly downstream: string,
    private readonly maxEntries = DEFAULT_MAX_CACHED_TOKENS,
  ) {}

  /** How many tokens are held (for tests and the bound). */
  get size(): number {
    return this.tokens.size;
  }

  get(key: string, fetch: () => Promise<CachedToken>, wait: TokenWait): Promise<string> {
    const cached = this.tokens.get(key);
    if (cached && Date.now() < cached.usableUntil) return Promise.resolve(cached.value);
    let pending = this.pending.get(key);
    if (!pending) {
      pending = fetch().then((token) => (this.store(key, token), token));
      this.pending.set(key, pending);
      // Settled either way, the next caller after this one asks again (a failure is not remembered).
      const forget = () => void this.pending.delete(key);
      pending.then(forget, forget);
    }
    return withinDeadline(
      pending.then((t) => t.value),
      wait,
      this.downstream,
    );
  }

  delete(key: string): Promise<void> {
    this.tokens.delete(key);
    return Promise.resolve();
  }

  private store(key: string, token: CachedToken): void {
    this.tokens.delete(key);
    if (token.usableUntil <= Date.now()) return;
    if (this.tokens.size >= this.maxEntries) this.evict();
    this.tokens.set(key, token);
  }

  /** Drops every expired token; when none was, the oldest stored (Map order is insertion order). */
  private evict(): void {
    const now = Date.now();
    for (const [key, token] of this.tokens) if (token.usableUntil <= now) this.tokens.delete(key);
    if (this.tokens.size >= this.maxEntries) this.tokens.delete(this.tokens.keys().next().value!);
  }
}

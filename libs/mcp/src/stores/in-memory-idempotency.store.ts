import { randomUUID } from 'node:crypto';
import { IdempotencyClaim, IdempotencyClaimBounds, McpIdempotencyStore } from './idempotency.store';

interface Entry {
  subject: string;
  fingerprint: string;
  /** Set while the call runs; the kept answer has none. */
  token?: string;
  answer: string | null;
  expiresAt: number;
}

/** The default store: keys and answers in this process (one replica), each gone at its expiry. */
export class InMemoryIdempotencyStore implements McpIdempotencyStore {
  private readonly entries = new Map<string, Entry>();
  private readonly bySubject = new Map<string, Set<string>>();

  async claim(
    id: string,
    subject: string,
    fingerprint: string,
    bounds: IdempotencyClaimBounds,
  ): Promise<IdempotencyClaim> {
    const now = Date.now();
    const seen = this.live(id, now);
    if (seen) {
      return seen.token
        ? { state: 'running', fingerprint: seen.fingerprint }
        : { state: 'done', fingerprint: seen.fingerprint, answer: seen.answer };
    }
    const own = this.bySubject.get(subject) ?? new Set<string>();
    for (const held of own) this.live(held, now);
    if (own.size >= bounds.maxPerSubject)
      return { state: 'full', bound: 'subject', retryAfterMs: this.firstExpiry(own, now) };
    if (this.entries.size >= bounds.maxKeys) {
      for (const held of [...this.entries.keys()]) this.live(held, now);
      if (this.entries.size >= bounds.maxKeys)
        return { state: 'full', bound: 'deployment', retryAfterMs: this.firstExpiry(this.entries.keys(), now) };
    }
    const token = randomUUID();
    this.entries.set(id, { subject, fingerprint, token, answer: null, expiresAt: now + bounds.runningTtlMs });
    own.add(id);
    this.bySubject.set(subject, own);
    return { state: 'claimed', token };
  }

  async keep(id: string, _subject: string, token: string, answer: string | null, ttlMs: number): Promise<void> {
    const entry = this.entries.get(id);
    if (entry?.token !== token) return;
    entry.token = undefined;
    entry.answer = answer;
    entry.expiresAt = Date.now() + ttlMs;
  }

  async release(id: string, _subject: string, token: string): Promise<void> {
    if (this.entries.get(id)?.token === token) this.drop(id);
  }

  /** The entry, unless it has expired (then it is dropped). */
  private live(id: string, now: number): Entry | undefined {
    const entry = this.entries.get(id);
    if (entry && entry.expiresAt <= now) {
      this.drop(id);
      return undefined;
    }
    return entry;
  }

  private drop(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    const own = this.bySubject.get(entry.subject);
    own?.delete(id);
    if (own?.size === 0) this.bySubject.delete(entry.subject);
  }

  private firstExpiry(ids: Iterable<string>, now: number): number {
    let first = Infinity;
    for (const id of ids) first = Math.min(first, this.entries.get(id)?.expiresAt ?? Infinity);
    return Number.isFinite(first) ? Math.max(1, first - now) : 1;
  }
}

import { McpSessionRecord, McpSessionStore } from './session.store';
import { SlicedSweep } from './sliced-sweep';

/**
 * The default store: records in a Map with their expiry. Expired records are invisible at once and removed a slice
 * at a time (at most once a second, on writes), so the store never holds up a request to clean itself.
 */
export class InMemorySessionStore implements McpSessionStore {
  private readonly records = new Map<string, { record: McpSessionRecord; expiresAt: number }>();
  private readonly expiry = new SlicedSweep(this.records, (id, held, now) => {
    if (held.expiresAt <= now) this.records.delete(id);
  });

  async get(id: string): Promise<McpSessionRecord | undefined> {
    const held = this.records.get(id);
    if (!held) return undefined;
    if (held.expiresAt <= Date.now()) {
      this.records.delete(id);
      return undefined;
    }
    return structuredClone(held.record);
  }

  async save(record: McpSessionRecord, ttlMs: number): Promise<void> {
    this.expiry.run();
    this.records.set(record.id, { record: structuredClone(record), expiresAt: Date.now() + ttlMs });
  }

  async touch(id: string, ttlMs: number): Promise<boolean> {
    const held = this.records.get(id);
    if (!held || held.expiresAt <= Date.now()) return false;
    held.expiresAt = Date.now() + ttlMs;
    return true;
  }

  async delete(id: string): Promise<void> {
    this.records.delete(id);
  }

  /** In process: always reachable. */
  async ping(): Promise<void> {}

  /** Records held, expired ones not yet swept included (for tests). */
  get size(): number {
    return this.records.size;
  }
}

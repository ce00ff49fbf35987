import {
  McpTaskByteCaps,
  McpTaskBytesRefusedError,
  McpTaskCaps,
  McpTaskCreateRefusal,
  McpTaskHead,
  McpTaskPatch,
  McpTaskRecord,
  McpTaskStore,
  TERMINAL_TASK_STATUSES,
  taskWeight,
} from './task.store';
import { SlicedSweep } from './sliced-sweep';
import { applyTaskPatch, decodeTaskCursor, encodeTaskCursor } from './task-record.util';

/**
 * The default task store: records in a Map until `createdAt + ttlMs`, open and kept tasks counted per owner. One
 * process only (the embedded default); expired records are invisible at once and swept a slice at a time.
 */
export class InMemoryTaskStore implements McpTaskStore {
  private readonly records = new Map<string, McpTaskRecord>();
  private readonly revisions = new Map<string, number>();
  private readonly byOwner = new Map<string, Set<string>>();
  private readonly open = new Map<string, number>();
  private openTotal = 0;
  /** Each kept task's weight (see taskWeight), and their sums per owner and in all. */
  private readonly weights = new Map<string, number>();
  private readonly ownerBytes = new Map<string, number>();
  private totalBytes = 0;
  private readonly expiry = new SlicedSweep(this.records, (id, record, now) => {
    if (expired(record, now)) this.remove(record);
  });

  async create(record: McpTaskRecord, caps: McpTaskCaps): Promise<McpTaskCreateRefusal | undefined> {
    this.expiry.run();
    // Expired tasks free their places before a refusal: a cap counts only tasks a client can still reach.
    const weight = weightOf(record);
    const overBytes = () => caps.bytesTotal !== undefined && this.totalBytes + weight > caps.bytesTotal;
    if (this.openTotal >= caps.total || this.records.size >= caps.keptTotal || overBytes())
      this.purge(this.records.keys());
    if (this.openTotal >= caps.total) return { reason: 'full' };
    if (this.records.size >= caps.keptTotal) return { reason: 'kept_full' };
    this.purge(this.byOwner.get(record.owner) ?? []);
    if ((this.open.get(record.owner) ?? 0) >= caps.perOwner) return { reason: 'owner_full' };
    // The deployment's bytes first (as its counts are): expired tasks have given theirs back above.
    if (overBytes()) return { reason: 'bytes_full' };
    const mine = this.byOwner.get(record.owner);
    const ownerFull =
      caps.bytesPerOwner !== undefined && (this.ownerBytes.get(record.owner) ?? 0) + weight > caps.bytesPerOwner;
    if (mine && (mine.size >= caps.keptPerOwner || ownerFull)) {
      let retryAt = Infinity;
      for (const id of mine) retryAt = Math.min(retryAt, expiresAt(this.records.get(id)!));
      return { reason: mine.size >= caps.keptPerOwner ? 'owner_kept_full' : 'owner_bytes_full', retryAt };
    }
    if (ownerFull) return { reason: 'owner_bytes_full' };
    this.records.set(record.id, structuredClone(record));
    this.weigh(record, weight);
    this.revisions.set(record.id, 1);
    let ids = this.byOwner.get(record.owner);
    if (!ids) this.byOwner.set(record.owner, (ids = new Set()));
    ids.add(record.id);
    if (!TERMINAL_TASK_STATUSES.has(record.status)) this.count(record.owner, +1);
    return undefined;
  }

  async get(id: string, owner?: string): Promise<McpTaskRecord | undefined> {
    const record = this.live(id);
    return record && (owner === undefined || record.owner === owner) ? structuredClone(record) : undefined;
  }

  async head(id: string): Promise<McpTaskHead | undefined> {
    const record = this.live(id);
    return record && { owner: record.owner, status: record.status, revision: this.revisions.get(id) ?? 1 };
  }

  async update(
    id: string,
    change: (current: McpTaskRecord) => McpTaskPatch | undefined,
    caps?: McpTaskByteCaps,
  ): Promise<McpTaskRecord | undefined> {
    const record = this.live(id);
    if (!record) return undefined;
    if (TERMINAL_TASK_STATUSES.has(record.status)) return structuredClone(record);
    const patch = change(structuredClone(record));
    if (!patch) return structuredClone(record);
    const next = applyTaskPatch(record, patch, Date.now());
    const weight = weightOf(next);
    const heavier = weight - (this.weights.get(id) ?? 0);
    if (caps && heavier > 0) {
      if ((this.ownerBytes.get(record.owner) ?? 0) + heavier > caps.bytesPerOwner)
        throw new McpTaskBytesRefusedError('owner_bytes_full');
      if (this.totalBytes + heavier > caps.bytesTotal) throw new McpTaskBytesRefusedError('bytes_full');
    }
    this.records.set(id, next);
    this.weigh(next, weight);
    this.revisions.set(id, (this.revisions.get(id) ?? 1) + 1);
    if (TERMINAL_TASK_STATUSES.has(next.status)) this.count(record.owner, -1);
    return structuredClone(next);
  }

  async list(
    owner: string,
    cursor: string | undefined,
    limit: number,
  ): Promise<{ tasks: McpTaskRecord[]; next?: string }> {
    const after = cursor === undefined ? undefined : decodeTaskCursor(cursor);
    const now = Date.now();
    const mine = [...(this.byOwner.get(owner) ?? [])]
      .map((id) => this.records.get(id))
      .filter((r): r is McpTaskRecord => r !== undefined && !expired(r, now))
      .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1))
      .filter((r) => !after || r.createdAt < after.createdAt || (r.createdAt === after.createdAt && r.id < after.id));
    const page = mine.slice(0, limit);
    const last = page[page.length - 1];
    return {
      tasks: page.map((r) => structuredClone(r)),
      ...(mine.length > limit && last ? { next: encodeTaskCursor(last) } : {}),
    };
  }

  async countOpen(owner?: string): Promise<number> {
    this.purge(owner === undefined ? this.records.keys() : (this.byOwner.get(owner) ?? []));
    return owner === undefined ? this.openTotal : (this.open.get(owner) ?? 0);
  }

  async ping(): Promise<void> {}

  private live(id: string): McpTaskRecord | undefined {
    const record = this.records.get(id);
    if (record && expired(record, Date.now())) {
      this.remove(record);
      return undefined;
    }
    return record;
  }

  /** Removes the expired records among `ids`. */
  private purge(ids: Iterable<string>): void {
    for (const id of [...ids]) this.live(id);
  }

  private remove(record: McpTaskRecord): void {
    this.weigh(record, 0);
    this.records.delete(record.id);
    this.revisions.delete(record.id);
    const ids = this.byOwner.get(record.owner);
    ids?.delete(record.id);
    if (ids?.size === 0) this.byOwner.delete(record.owner);
    if (!TERMINAL_TASK_STATUSES.has(record.status)) this.count(record.owner, -1);
  }

  /** Sets the task's weight (0: it is gone) and the sums it is part of. */
  private weigh(record: McpTaskRecord, weight: number): void {
    const delta = weight - (this.weights.get(record.id) ?? 0);
    if (weight) this.weights.set(record.id, weight);
    else this.weights.delete(record.id);
    const mine = (this.ownerBytes.get(record.owner) ?? 0) + delta;
    if (mine > 0) this.ownerBytes.set(record.owner, mine);
    else this.ownerBytes.delete(record.owner);
    this.totalBytes += delta;
  }

  private count(owner: string, delta: number): void {
    const n = (this.open.get(owner) ?? 0) + delta;
    if (n > 0) this.open.set(owner, n);
    else this.open.delete(owner);
    this.openTotal += delta;
  }
}

const expiresAt = (record: McpTaskRecord) => record.createdAt + record.ttlMs;
const weightOf = (record: McpTaskRecord) =>
  taskWeight(Buffer.byteLength(JSON.stringify(record)), !TERMINAL_TASK_STATUSES.has(record.status));
const expired = (record: McpTaskRecord, now: number) => expiresAt(record) <= now;

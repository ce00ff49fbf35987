import type { RedisClient } from './redis-client.factory';
import { probeRedisWrites } from './redis-write.probe';
import {
  McpTaskByteCaps,
  McpTaskBytesRefusedError,
  McpTaskCaps,
  McpTaskCreateRefusal,
  McpTaskHead,
  McpTaskPatch,
  McpTaskRecord,
  McpTaskStatus,
  McpTaskStore,
  TERMINAL_TASK_STATUSES,
  taskWeight,
} from './task.store';
import { applyTaskPatch, decodeTaskCursor, encodeTaskCursor } from './task-record.util';
import { COUNT, CREATE, SWAP } from './redis-task.scripts';

/**
 * Rounds of record reads one `list` page may take: entries of expired tasks are skipped, so a page may need more than
 * one, but never an unbounded number (a page then ends short, with a cursor).
 */
const MAX_LIST_ROUNDS = 8;

/** Compare-and-set rounds an update tries before giving up (each lost round means another change went in). */
const MAX_TRIES = 20;

/** The scripts as ioredis exposes them once defined (sent as EVALSHA; the text only on NOSCRIPT). */
interface TaskCommands {
  mcpTaskCreate(...keysThenArgs: (string | number)[]): Promise<[McpTaskCreateRefusal['reason'], string?] | null>;
  mcpTaskSwap(...keysThenArgs: string[]): Promise<number>;
  mcpTaskCount(key: string, now: number): Promise<number>;
}

const expiresAt = (record: McpTaskRecord) => record.createdAt + record.ttlMs;

/**
 * Tasks in Redis, shared by every replica. A task is a hash `<prefix>{tasks}:task:<id>` holding the JSON record (`j`),
 * a version (`v`), and its owner (`o`) and status (`s`) apart, so an owner check or a waiter's periodic look reads a
 * few bytes, never the arguments or the result; it expires at `createdAt + ttlMs`. `<prefix>{tasks}:owner:<owner>`
 * (scored by creation) lists an owner's tasks; `…:open:<owner>` and `…:open` hold the open ones, `…:kept:<owner>` and
 * `…:kept` every live one, all scored by expiry so expired entries are dropped by score before counting. What each
 * kept task weighs (see `taskWeight`) is in `…:weights` and `…:weights:<owner>` (id to bytes) and summed in `…:bytes`:
 * an owner's bytes are the sum of its hash (at most its kept tasks), the deployment's the counter, and an expired
 * task's weight leaves both when its kept entries are dropped.
 *
 * Every key carries the hash tag `{tasks}`, so all task keys share one Cluster slot: the caps are checked and the
 * record written by one script touching the owner's and the deployment's sets together. (The prefix itself must
 * not contain braces, or its tag would decide the slot.) The price is that all tasks live on one Cluster shard.
 *
 * Updates are optimistic, not WATCH/MULTI (the connection is shared by concurrent callers): read record and version,
 * run the change here, write with a compare-and-set on the version, and on a conflict read again. So `change` may
 * run more than once, each time on the latest record; only the patch of the round that wins is kept.
 */
export class RedisTaskStore implements McpTaskStore {
  private readonly scripts: TaskCommands;

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix = 'mcp:',
  ) {
    redis.defineCommand('mcpTaskCreate', { numberOfKeys: 9, lua: CREATE });
    redis.defineCommand('mcpTaskSwap', { numberOfKeys: 6, lua: SWAP });
    redis.defineCommand('mcpTaskCount', { numberOfKeys: 1, lua: COUNT });
    this.scripts = redis as unknown as TaskCommands;
  }

  async create(record: McpTaskRecord, caps: McpTaskCaps): Promise<McpTaskCreateRefusal | undefined> {
    const json = JSON.stringify(record);
    const open = !TERMINAL_TASK_STATUSES.has(record.status);
    const refused = await this.scripts.mcpTaskCreate(
      this.key(record.id),
      this.ownerKey(record.owner),
      this.openKey(record.owner),
      this.openKey(),
      this.keptKey(record.owner),
      this.keptKey(),
      this.weightsKey(),
      this.weightsKey(record.owner),
      this.weightSumKey(),
      record.id,
      json,
      record.createdAt,
      expiresAt(record),
      Date.now(),
      caps.perOwner,
      caps.total,
      open ? '1' : '0',
      record.owner,
      record.status,
      caps.keptPerOwner,
      caps.keptTotal,
      taskWeight(Buffer.byteLength(json), open),
      caps.bytesPerOwner ?? '',
      caps.bytesTotal ?? '',
    );
    if (!refused) return undefined;
    return { reason: refused[0], ...(refused[1] ? { retryAt: Number(refused[1]) } : {}) };
  }

  async get(id: string, owner?: string): Promise<McpTaskRecord | undefined> {
    return (await this.read(id, owner))?.record;
  }

  async head(id: string): Promise<McpTaskHead | undefined> {
    const [owner, status, version] = await this.redis.hmget(this.key(id), 'o', 's', 'v');
    if (version === null) return undefined;
    if (owner === null || status === null) {
      // Written without the summary fields: read from the record itself.
      const record = (await this.read(id))?.record;
      return record && { owner: record.owner, status: record.status, revision: Number(version) };
    }
    return { owner, status: status as McpTaskStatus, revision: Number(version) };
  }

  async update(
    id: string,
    change: (current: McpTaskRecord) => McpTaskPatch | undefined,
    caps?: McpTaskByteCaps,
  ): Promise<McpTaskRecord | undefined> {
    for (let attempt = 1; attempt <= MAX_TRIES; attempt++) {
      const read = await this.read(id);
      if (!read) return undefined;
      const { record, version } = read;
      if (TERMINAL_TASK_STATUSES.has(record.status)) return record;
      const patch = change(structuredClone(record));
      if (!patch) return record;
      const json = JSON.stringify(applyTaskPatch(record, patch, Date.now()));
      const next = JSON.parse(json) as McpTaskRecord; // what a `get` will answer (undefined fields dropped)
      const final = TERMINAL_TASK_STATUSES.has(next.status) ? '1' : '0';
      const swapped = await this.scripts.mcpTaskSwap(
        this.key(id),
        this.openKey(record.owner),
        this.openKey(),
        this.weightsKey(),
        this.weightsKey(record.owner),
        this.weightSumKey(),
        version,
        json,
        id,
        final,
        next.status,
        String(taskWeight(Buffer.byteLength(json), final === '0')),
        caps ? String(caps.bytesPerOwner) : '',
        caps ? String(caps.bytesTotal) : '',
      );
      if (swapped === 1) return next;
      if (swapped < 0) throw new McpTaskBytesRefusedError(swapped === -1 ? 'owner_bytes_full' : 'bytes_full');
      // Lost to another writer: back off a random moment so a crowd of writers does not collide again in lockstep.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2 ** attempt, 50)));
    }
    throw new Error(`task ${id}: update lost ${MAX_TRIES} times in a row to concurrent changes`);
  }

  /**
   * Walks the owner's index newest first from the cursor's position (never by offset, so tasks created or removed
   * meanwhile do not shift the page), reading records until `limit + 1` live ones are found: the extra one says
   * whether there is a next page. Entries whose record expired are skipped, and dropped from the index afterwards.
   */
  async list(
    owner: string,
    cursor: string | undefined,
    limit: number,
  ): Promise<{ tasks: McpTaskRecord[]; next?: string }> {
    let position = cursor === undefined ? undefined : decodeTaskCursor(cursor);
    const index = this.ownerKey(owner);
    const found: McpTaskRecord[] = [];
    const stale: string[] = [];
    // Entries sharing the position's score but not after it come back each time; `skip` makes room past them.
    let skip = 0;
    let ended = false;
    for (let rounds = 0; found.length <= limit && !ended;) {
      // Bounded work per page: after MAX_LIST_ROUNDS reads the page ends short, with a cursor past what was read.
      if (rounds === MAX_LIST_ROUNDS && position) {
        if (stale.length) await this.redis.zrem(index, ...stale);
        return { tasks: found, next: encodeTaskCursor(position) };
      }
      const want = limit + 1 - found.length + skip;
      const max = position ? position.createdAt : '+inf';
      const raw = await this.redis.zrevrangebyscore(index, max, '-inf', 'WITHSCORES', 'LIMIT', 0, want);
      const entries: { id: string; createdAt: number }[] = [];
      for (let i = 0; i < raw.length; i += 2) {
        const entry = { id: raw[i], createdAt: Number(raw[i + 1]) };
        const after = !position || entry.createdAt < position.createdAt || entry.id < position.id;
        if (after) entries.push(entry);
      }
      ended = raw.length / 2 < want;
      if (entries.length === 0) {
        skip += want;
        continue;
      }
      rounds++;
      const reads = await Promise.all(entries.map((entry) => this.read(entry.id)));
      reads.forEach((read, i) => (read ? found.push(read.record) : stale.push(entries[i].id)));
      position = entries[entries.length - 1];
      skip = 0;
    }
    if (stale.length) await this.redis.zrem(index, ...stale);
    const tasks = found.slice(0, limit);
    const last = tasks[tasks.length - 1];
    return { tasks, ...(found.length > limit && last ? { next: encodeTaskCursor(last) } : {}) };
  }

  async countOpen(owner?: string): Promise<number> {
    return this.scripts.mcpTaskCount(this.openKey(owner), Date.now());
  }

  /** Readiness: a write (a Redis at maxmemory answers PING but refuses writes). */
  async ping(): Promise<void> {
    await probeRedisWrites(this.redis, `${this.prefix}{tasks}:ready`);
  }

  /**
   * The record and its version, or undefined when it is gone or past its expiry by this replica's clock (the same
   * test as in memory, whatever Redis's clock says).
   */
  private async read(id: string, owner?: string): Promise<{ record: McpTaskRecord; version: string } | undefined> {
    const [json, version, holder] = await this.redis.hmget(this.key(id), 'j', 'v', 'o');
    // Another owner's record is never decoded (one written without the owner field is, and compared below).
    if (json === null || version === null || (owner !== undefined && holder !== null && holder !== owner))
      return undefined;
    let record: McpTaskRecord;
    try {
      record = JSON.parse(json) as McpTaskRecord;
    } catch {
      return undefined; // not ours, or damaged: the task is treated as unknown
    }
    if (owner !== undefined && record.owner !== owner) return undefined;
    return expiresAt(record) <= Date.now() ? undefined : { record, version };
  }

  private key(id: string): string {
    return `${this.prefix}{tasks}:task:${id}`;
  }

  private ownerKey(owner: string): string {
    return `${this.prefix}{tasks}:owner:${owner}`;
  }

  private keptKey(owner?: string): string {
    return owner === undefined ? `${this.prefix}{tasks}:kept` : `${this.prefix}{tasks}:kept:${owner}`;
  }

  /** Each kept task's weight by id: the deployment's (to give them back as tasks expire) and an owner's (to sum). */
  private weightsKey(owner?: string): string {
    return owner === undefined ? `${this.prefix}{tasks}:weights` : `${this.prefix}{tasks}:weights:${owner}`;
  }

  /** The sum of the deployment's kept tasks' weights. */
  private weightSumKey(): string {
    return `${this.prefix}{tasks}:bytes`;
  }

  private openKey(owner?: string): string {
    return owner === undefined ? `${this.prefix}{tasks}:open` : `${this.prefix}{tasks}:open:${owner}`;
  }
}

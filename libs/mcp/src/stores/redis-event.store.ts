import { Logger } from '@nestjs/common';
import { probeRedisWrites } from './redis-write.probe';
import type { RedisClient } from './redis-client.factory';
import { McpEventStore, McpReplay } from './event.store';

/** What a finished stream keeps for late resumes; an open stream lives as long as its session could. */
const COMPLETE_TTL_MS = 5 * 60_000;

/**
 * SSE event logs in Redis Streams, so a client resumes with `Last-Event-ID` on any replica, also after the replica
 * that held its stream died. Per stream: `<prefix>events:<streamId>` (an XADD per event, capped at about
 * `maxEventsPerStream`, oldest first) and `<prefix>stream:<streamId>` (its session, complete or not); per session,
 * `<prefix>streams:<sessionId>` lists its open streams, so ending the session drops them. Everything expires: a
 * finished stream 5 minutes after it finished, an open one `openTtlMs` after its last event.
 *
 * Writes are sent without waiting (event ids are made here: `<streamId>_<n>`, and one connection keeps their
 * order), so streaming never waits on Redis; a write that fails is logged, and only resumes miss it.
 */
export class RedisEventStore implements McpEventStore {
  private readonly logger = new Logger('McpEvents');
  private readonly seq = new Map<string, number>();
  /** Session of each stream opened here (open streams only). */
  private readonly owner = new Map<string, string>();

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix = 'mcp:',
    private readonly openTtlMs = 30 * 60_000,
    private readonly maxEventsPerStream = 1_000,
  ) {}

  open(streamId: string, sessionId: string): void {
    this.seq.set(streamId, 0);
    this.owner.set(streamId, sessionId);
    this.redis
      .multi()
      .hset(this.meta(streamId), 'session', sessionId, 'complete', '0')
      .pexpire(this.meta(streamId), this.openTtlMs)
      .sadd(this.index(sessionId), streamId)
      .pexpire(this.index(sessionId), this.openTtlMs)
      .exec()
      .catch((e: Error) => this.failed('open', e));
  }

  append(streamId: string, json: string): string {
    const n = (this.seq.get(streamId) ?? 0) + 1;
    this.seq.set(streamId, n);
    this.redis
      .multi()
      .xadd(this.events(streamId), 'MAXLEN', '~', this.maxEventsPerStream, '*', 'n', String(n), 'm', json)
      .pexpire(this.events(streamId), this.openTtlMs)
      .pexpire(this.meta(streamId), this.openTtlMs)
      .exec()
      .catch((e: Error) => this.failed('append', e));
    return `${streamId}_${n}`;
  }

  complete(streamId: string): void {
    this.seq.delete(streamId);
    const sessionId = this.owner.get(streamId);
    this.owner.delete(streamId);
    const batch = this.redis.multi();
    // The session's index lists open streams only: a finished one expires by itself, whatever their number.
    if (sessionId) batch.srem(this.index(sessionId), streamId);
    batch
      .hset(this.meta(streamId), 'complete', '1')
      .pexpire(this.meta(streamId), COMPLETE_TTL_MS)
      .pexpire(this.events(streamId), COMPLETE_TTL_MS)
      .exec()
      .catch((e: Error) => this.failed('complete', e));
  }

  async replayAfter(lastEventId: string, sessionId: string): Promise<McpReplay | undefined> {
    const cut = lastEventId.lastIndexOf('_');
    if (cut <= 0) return undefined;
    const streamId = lastEventId.slice(0, cut);
    const after = Number(lastEventId.slice(cut + 1));
    if (!Number.isInteger(after)) return undefined;
    const meta = await this.redis.hgetall(this.meta(streamId));
    if (meta.session !== sessionId) return undefined;
    const entries = await this.redis.xrange(this.events(streamId), '-', '+');
    const events: [string, string][] = [];
    for (const [, fields] of entries) {
      const n = Number(fields[fields.indexOf('n') + 1]);
      if (n > after) events.push([`${streamId}_${n}`, fields[fields.indexOf('m') + 1]]);
    }
    return { streamId, complete: meta.complete === '1', events };
  }

  dropSession(sessionId: string): void {
    void (async () => {
      const streams = await this.redis.smembers(this.index(sessionId));
      const keys = streams.flatMap((id) => [this.meta(id), this.events(id)]);
      await this.redis.del(this.index(sessionId), ...keys);
      for (const id of streams) {
        this.seq.delete(id);
        this.owner.delete(id);
      }
    })().catch((e: Error) => this.failed('dropSession', e));
  }

  /** Readiness: a write (a Redis at maxmemory answers PING but refuses writes). */
  async ping(): Promise<void> {
    await probeRedisWrites(this.redis, `${this.prefix}ready:events`);
  }

  private failed(operation: string, error: Error): void {
    this.logger.warn(`event log ${operation} failed (resumes may miss events): ${error.message}`);
  }

  private meta(streamId: string): string {
    return `${this.prefix}stream:${streamId}`;
  }

  private events(streamId: string): string {
    return `${this.prefix}events:${streamId}`;
  }

  private index(sessionId: string): string {
    return `${this.prefix}streams:${sessionId}`;
  }
}

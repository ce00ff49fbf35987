import { Inject, Injectable, Optional } from '@nestjs/common';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { RateLimitedError } from '../errors/mcp.error';
import { McpPrincipal, callerSubject } from '../auth/mcp-principal';
import { MCP_LIMIT_STORE, McpLimitStore } from '../stores/limit.store';
import { McpAdmissionRefusals, rateLimited } from './admission-refusals';
import { failClosed, limitStoreUnreachable } from './fail-closed';

/** Callers remembered as over their request budget, per replica; past it the oldest are forgotten. */
const MAX_KNOWN_OVER = 10_000;

/**
 * The request budgets per caller (the token's subject; over stdio, the process): every message against
 * `limits.requestsPerMinute`, and the bytes of `Last-Event-ID` replays against `limits.replayBytesPerMinute`.
 * Exceeding one is `-32003` with `retryAfter` (HTTP 429 with `Retry-After`). Asked through {@link McpAdmission} only.
 * @internal
 */
@Injectable()
export class RequestBudget {
  /** Callers seen over their request budget, until when (see {@link knownOver}). */
  private readonly over = new Map<string, number>();

  constructor(
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
    @Inject(MCP_LIMIT_STORE) private readonly store: McpLimitStore,
    @Optional() private readonly refusals?: McpAdmissionRefusals,
  ) {}

  /**
   * Counts one message of any kind (ping, lists, calls, unknown methods, notifications, each message of a batch)
   * against the caller's `requestsPerMinute`, or throws {@link RateLimitedError}; `label` is its metric target.
   */
  async admitCaller(transport: string, principal: McpPrincipal | undefined, label: string): Promise<void> {
    const subject = callerSubject(principal, transport);
    const verdict = await failClosed(
      () => this.store.consume(`r:${subject}`, this.options.limits.requestsPerMinute, 60),
      limitStoreUnreachable,
    );
    if (verdict.ok) return;
    this.noteOver(subject, verdict.retryAfterSec);
    this.refused(label, 'requests', subject);
    throw new RateLimitedError(verdict.retryAfterSec, 'Rate limited: too many requests; retry later');
  }

  /**
   * Seconds until a caller this replica has seen over its request budget may send again, or undefined: lets the HTTP
   * transport refuse a body before reading it (a flood of 200 KB bodies costs their reading even when each is refused).
   * Only a hint: the budget itself is counted by {@link admitCaller}.
   */
  knownOver(transport: string, principal: McpPrincipal | undefined): number | undefined {
    if (this.over.size === 0) return undefined; // the usual case: nothing to look up per request
    const subject = callerSubject(principal, transport);
    const until = this.over.get(subject);
    if (until === undefined) return undefined;
    const left = until - Date.now();
    if (left > 0) return Math.ceil(left / 1000);
    this.over.delete(subject);
    return undefined;
  }

  /** Counts a request refused by {@link knownOver} (its body unread, so its method unknown: target `unread`). */
  refusedUnread(transport: string, principal: McpPrincipal | undefined): void {
    this.refused('unread', 'requests', callerSubject(principal, transport));
  }

  private noteOver(subject: string, retryAfterSec: number): void {
    if (this.over.size >= MAX_KNOWN_OVER) {
      const now = Date.now();
      for (const [key, until] of this.over) if (until <= now) this.over.delete(key);
      if (this.over.size >= MAX_KNOWN_OVER) this.over.clear();
    }
    this.over.set(subject, Date.now() + retryAfterSec * 1000);
  }

  /**
   * Counts the bytes of a `Last-Event-ID` replay against the caller's `replayBytesPerMinute`, or throws
   * {@link RateLimitedError} (nothing is replayed then).
   */
  async admitReplay(transport: string, principal: McpPrincipal | undefined, bytes: number): Promise<void> {
    const subject = callerSubject(principal, transport);
    const perMinute = this.options.limits.replayBytesPerMinute;
    const verdict = await failClosed(
      () => this.store.consume(`replay:${subject}`, perMinute, 60, bytes),
      limitStoreUnreachable,
    );
    if (verdict.ok) return;
    this.refused('replay', 'replay_bytes', subject);
    throw new RateLimitedError(verdict.retryAfterSec, 'Rate limited: too many bytes replayed; resume later');
  }

  private refused(target: string, limit: string, subject: string): void {
    rateLimited(this.refusals, target, limit, subject);
  }
}

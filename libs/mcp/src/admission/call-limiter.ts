import { Inject, Injectable, Optional } from '@nestjs/common';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../mcp-module-options.interface';
import { RateLimitedError } from '../errors/mcp.error';
import { McpPrincipal, callerSubject } from '../auth/mcp-principal';
import { MCP_LIMIT_STORE, McpLimitStore } from '../stores/limit.store';
import { McpAdmissionRefusals } from './admission-refusals';
import { failClosed, limitStoreUnreachable } from './fail-closed';

/** Callers remembered as over their request budget, per replica; past it the oldest are forgotten. */
const MAX_KNOWN_OVER = 10_000;

/** A tool's own limits, from `@McpTool({ rateLimit })`. */
export interface McpCallLimits {
  callsPerMinute?: number;
  maxConcurrent?: number;
}

/** Who a budget is counted for: the caller's token (if any) and the transport it came over. @internal */
export interface McpCaller {
  principal?: McpPrincipal;
  transport: string;
}

/**
 * Rate and concurrency limits per caller (the token's subject; over stdio, the process), for every
 * tools/call, prompts/get and resources/read, plus a tool's own tighter limits. Exceeding one is
 * `-32003` with `retryAfter` (HTTP 429 with `Retry-After`). Called through {@link McpAdmission} only.
 * @internal
 */
@Injectable()
export class CallLimiter {
  /** Callers seen over their request budget, until when (see {@link knownOver}). */
  private readonly over = new Map<string, number>();

  constructor(
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
    @Inject(MCP_LIMIT_STORE) private readonly store: McpLimitStore,
    @Optional() private readonly refusals?: McpAdmissionRefusals,
  ) {}

  /** Runs `work` within the caller's budgets, or throws {@link RateLimitedError}. */
  async run<T>(caller: McpCaller, target: string, own: McpCallLimits | undefined, work: () => Promise<T>): Promise<T> {
    const subject = callerSubject(caller.principal, caller.transport);
    const { callsPerMinute, maxConcurrentCalls } = this.options.limits;
    await this.take(`s:${subject}`, callsPerMinute, target, subject);
    if (own?.callsPerMinute) await this.take(`t:${target}:${subject}`, own.callsPerMinute, target, subject);
    const slots = [`s:${subject}`, ...(own?.maxConcurrent ? [`t:${target}:${subject}`] : [])];
    const taken: string[] = [];
    try {
      for (const [i, key] of slots.entries()) {
        const max = i === 0 ? maxConcurrentCalls : own!.maxConcurrent!;
        if (!(await failClosed(() => this.store.acquire(key, max), limitStoreUnreachable))) {
          this.refused(target, 'concurrency', subject);
          throw new RateLimitedError(1, 'Rate limited: too many calls at once; retry when one finishes');
        }
        taken.push(key);
      }
      return await work();
    } finally {
      // A release that cannot reach the store is not retried: a shared store expires its slots by itself.
      for (const key of taken) await this.store.release(key).catch(() => undefined);
    }
  }

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

  /** Every refusal is counted; its log line is aggregated per caller and limit. */
  private refused(target: string, limit: string, subject: string): void {
    const label = metricTarget(target);
    this.refusals?.refused({
      target: label,
      limit,
      reason: `rate_limited:${limit}`,
      subject,
      detail: { target: label },
    });
  }

  private async take(key: string, perMinute: number, target: string, subject: string): Promise<void> {
    const verdict = await failClosed(() => this.store.consume(key, perMinute, 60), limitStoreUnreachable);
    if (!verdict.ok) {
      this.refused(target, 'rate', subject);
      throw new RateLimitedError(verdict.retryAfterSec);
    }
  }
}

/** Tool and prompt names are bounded; resource URIs (template-expanded) are not, so they count as one. */
const metricTarget = (target: string): string => (target.includes('://') ? 'resources/read' : target);

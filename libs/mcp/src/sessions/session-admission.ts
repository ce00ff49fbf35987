import { Inject, Injectable, Optional } from '@nestjs/common';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../interfaces/mcp-module-options.interface';
import { ErrorCode } from '../wire/json-rpc';
import { McpError } from '../errors/mcp.error';
import { budgetSubject } from '../auth/mcp-principal';
import { McpSession } from './mcp-session';
import { McpSessionManager } from './mcp-session.manager';
import { McpMetrics } from '../observability/mcp-metrics.service';
import { McpRefusalLog } from '../observability/refusal-log';

/** The subject a session is counted under: the token's `sub`; without a token, the caller's source address. */
const subjectOf = (principal: unknown): string => budgetSubject(principal, 'anonymous');

/**
 * Bounds what callers can make the server hold in sessions: open sessions per subject and in total, and
 * `initialize` calls per subject per minute. A client that re-initializes on every call, or a flood of
 * `initialize`, is refused with a JSON-RPC error (429 `-32003` per subject, 503 `-32006` at capacity) instead of
 * growing the heap until the process dies. Counts are per process (each replica bounds itself).
 * @internal
 */
@Injectable()
export class SessionAdmission {
  private readonly open = new Map<string, number>();
  private readonly counted = new WeakSet<McpSession>();
  private total = 0;
  private readonly initializeRate: RateLimiterMemory;

  constructor(
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly sessions: McpSessionManager,
    private readonly metrics: McpMetrics,
    @Optional() private readonly refusals?: McpRefusalLog,
  ) {
    this.initializeRate = new RateLimiterMemory({ points: options.limits.initializePerMinute, duration: 60 });
    sessions.onClose((session) => this.release(session));
  }

  /** The refusal for a new session of this principal, or undefined when it may open one. */
  async refusal(principal: unknown): Promise<McpError | undefined> {
    const subject = subjectOf(principal);
    const { maxSessions, maxSessionsPerSubject } = this.options.limits;
    // A draining replica takes no new sessions: the client opens one on another instance.
    if (this.sessions.draining)
      return new McpError(ErrorCode.UpstreamUnavailable, 'Unavailable: the server is shutting down; retry', {
        reason: 'shutting_down',
        retryAfter: 1,
      });
    if (this.total >= maxSessions) {
      this.refused('sessions_total', subject);
      return new McpError(ErrorCode.UpstreamUnavailable, 'Server busy: too many open sessions; retry later', {
        reason: 'session_capacity',
        retryAfter: 30,
      });
    }
    if ((this.open.get(subject) ?? 0) >= maxSessionsPerSubject) {
      this.refused('sessions', subject);
      return new McpError(
        ErrorCode.RateLimited,
        `Too many open sessions for this caller (at most ${maxSessionsPerSubject}): reuse a session, or end one with DELETE`,
        { reason: 'session_limit', retryAfter: 60 },
      );
    }
    try {
      await this.initializeRate.consume(subject);
    } catch (rejection) {
      this.refused('rate', subject);
      const ms = (rejection as { msBeforeNext?: number }).msBeforeNext ?? 60_000;
      return new McpError(ErrorCode.RateLimited, 'Too many initialize requests: reuse the session you have', {
        reason: 'initialize_rate',
        retryAfter: Math.max(1, Math.ceil(ms / 1000)),
      });
    }
    return undefined;
  }

  private refused(limit: string, subject: string): void {
    this.metrics.rateLimited.inc({ target: 'initialize', limit });
    this.refusals?.note(`initialize:${limit}`, subject);
  }

  /** Counts a session that was opened (call right after creating it). */
  track(session: McpSession): void {
    const subject = subjectOf(session.principal);
    this.open.set(subject, (this.open.get(subject) ?? 0) + 1);
    this.total++;
    this.counted.add(session);
  }

  private release(session: McpSession): void {
    if (!this.counted.has(session)) return;
    this.counted.delete(session);
    const subject = subjectOf(session.principal);
    const left = (this.open.get(subject) ?? 1) - 1;
    if (left > 0) this.open.set(subject, left);
    else this.open.delete(subject);
    this.total--;
  }
}

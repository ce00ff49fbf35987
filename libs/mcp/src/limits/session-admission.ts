import { Inject, Injectable } from '@nestjs/common';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../interfaces/mcp-module-options.interface';
import { ErrorCode } from '../protocol/json-rpc';
import { McpError } from '../errors/mcp.error';
import { McpPrincipal } from '../auth/mcp-principal';
import { McpSession } from '../protocol/mcp-session';
import { McpSessionManager } from '../protocol/mcp-session.manager';
import { McpMetrics } from '../observability/mcp-metrics.service';

/** The subject a session is counted under: the token's `sub`, `anonymous` without a token (anonymous listing). */
const subjectOf = (principal: unknown): string => (principal as McpPrincipal | undefined)?.subject ?? 'anonymous';

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
    sessions: McpSessionManager,
    private readonly metrics: McpMetrics,
  ) {
    this.initializeRate = new RateLimiterMemory({ points: options.limits.initializePerMinute, duration: 60 });
    sessions.onClose((session) => this.release(session));
  }

  /** The refusal for a new session of this principal, or undefined when it may open one. */
  async refusal(principal: unknown): Promise<McpError | undefined> {
    const subject = subjectOf(principal);
    const { maxSessions, maxSessionsPerSubject } = this.options.limits;
    if (this.total >= maxSessions) {
      this.metrics.rateLimited.inc({ target: 'initialize', limit: 'sessions_total' });
      return new McpError(ErrorCode.UpstreamUnavailable, 'Server busy: too many open sessions; retry later', {
        reason: 'session_capacity',
        retryAfter: 30,
      });
    }
    if ((this.open.get(subject) ?? 0) >= maxSessionsPerSubject) {
      this.metrics.rateLimited.inc({ target: 'initialize', limit: 'sessions' });
      return new McpError(
        ErrorCode.RateLimited,
        `Too many open sessions for this caller (at most ${maxSessionsPerSubject}): reuse a session, or end one with DELETE`,
        { reason: 'session_limit', retryAfter: 60 },
      );
    }
    try {
      await this.initializeRate.consume(subject);
    } catch (rejection) {
      this.metrics.rateLimited.inc({ target: 'initialize', limit: 'rate' });
      const ms = (rejection as { msBeforeNext?: number }).msBeforeNext ?? 60_000;
      return new McpError(ErrorCode.RateLimited, 'Too many initialize requests: reuse the session you have', {
        reason: 'initialize_rate',
        retryAfter: Math.max(1, Math.ceil(ms / 1000)),
      });
    }
    return undefined;
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

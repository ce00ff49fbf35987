import { Inject, Injectable, Optional } from '@nestjs/common';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { ErrorCode } from '../wire/json-rpc';
import { McpError } from '../errors/mcp.error';
import { McpPrincipal, budgetSubject } from '../auth/mcp-principal';
import { McpSession } from './mcp-session';
import { McpSessionManager } from './mcp-session.manager';
import { MCP_SESSION_STORE, McpSessionStore } from '../stores/session.store';
import { MCP_LIMIT_STORE, McpLimitStore } from '../stores/limit.store';
import { McpMetrics } from '../observability/mcp-metrics.service';
import { McpRefusalLog } from '../observability/refusal-log';

/** The subject a session is counted under: the token's `sub`; without a token, the caller's source address. */
const subjectOf = (principal: McpPrincipal | undefined): string => budgetSubject(principal, 'anonymous');

/**
 * Bounds what callers can make the server hold in sessions: open sessions per subject and in total, and
 * `initialize` calls per subject per minute. A client that re-initializes on every call, or a flood of
 * `initialize`, is refused with a JSON-RPC error (429 `-32003` per subject, 503 `-32006` at capacity) instead of
 * growing the heap until the process dies. With a shared store (`MCP_STORE=redis`) the counts and the rate hold for
 * the whole deployment; in memory, each process bounds itself.
 * @internal
 */
@Injectable()
export class SessionAdmission {
  private readonly open = new Map<string, number>();
  private readonly counted = new WeakSet<McpSession>();
  private total = 0;

  constructor(
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly sessions: McpSessionManager,
    private readonly metrics: McpMetrics,
    @Inject(MCP_SESSION_STORE) private readonly store: McpSessionStore,
    @Inject(MCP_LIMIT_STORE) private readonly limits: McpLimitStore,
    @Optional() private readonly refusals?: McpRefusalLog,
  ) {
    sessions.onClose((session) => this.release(session));
  }

  /**
   * Open sessions, of `subject` or all: the shared store's count when it has one (the caps then hold for the
   * deployment), else this replica's.
   */
  private async openSessions(subject?: string): Promise<number> {
    if (this.store.shared && this.store.countOpen) return this.store.countOpen(subject);
    return subject === undefined ? this.total : (this.open.get(subject) ?? 0);
  }

  /**
   * The refusal for a new session of this principal, or undefined when it may open one. Throws when a shared store
   * cannot be reached (the transport answers 503).
   */
  async refusal(principal: McpPrincipal | undefined): Promise<McpError | undefined> {
    const subject = subjectOf(principal);
    const { maxSessions, maxSessionsPerSubject } = this.options.limits;
    // A draining replica takes no new sessions: the client opens one on another instance.
    if (this.sessions.draining)
      return new McpError(ErrorCode.UpstreamUnavailable, 'Unavailable: the server is shutting down; retry', {
        reason: 'shutting_down',
        retryAfter: 1,
      });
    if ((await this.openSessions()) >= maxSessions) {
      this.refused('sessions_total', subject);
      return new McpError(ErrorCode.UpstreamUnavailable, 'Server busy: too many open sessions; retry later', {
        reason: 'session_capacity',
        retryAfter: 30,
      });
    }
    if ((await this.openSessions(subject)) >= maxSessionsPerSubject) {
      this.refused('sessions', subject);
      return new McpError(
        ErrorCode.RateLimited,
        `Too many open sessions for this caller (at most ${maxSessionsPerSubject}): reuse a session, or end one with DELETE`,
        { reason: 'session_limit', retryAfter: 60 },
      );
    }
    // The initialize rate goes through the limit store: shared by every replica when the store is.
    const verdict = await this.limits.consume(`i:${subject}`, this.options.limits.initializePerMinute, 60);
    if (!verdict.ok) {
      this.refused('rate', subject);
      return new McpError(ErrorCode.RateLimited, 'Too many initialize requests: reuse the session you have', {
        reason: 'initialize_rate',
        retryAfter: verdict.retryAfterSec,
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

import { Inject, Injectable, Optional } from '@nestjs/common';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { ErrorCode } from '../wire/json-rpc';
import { McpError } from '../errors/mcp.error';
import { McpPrincipal, budgetSubject } from '../auth/mcp-principal';
import { MCP_LIMIT_STORE, McpLimitStore } from '../stores/limit.store';
import { McpAdmissionRefusals } from './admission-refusals';

/**
 * What the session budget needs to know of the open sessions: admission sits below sessions/, so it owns this
 * contract and the sessions layer implements it (see SessionCount).
 * @internal
 */
export abstract class OpenSessionCounts {
  /** True while this replica drains: it takes no new sessions. */
  abstract get draining(): boolean;
  /** Open sessions of `subject`, or of everyone: the deployment's with a shared store, else this replica's. */
  abstract count(subject?: string): Promise<number>;
}

/** The subject a session is counted under: the token's `sub`, or without a token the caller's address. @internal */
export const sessionSubject = (principal: McpPrincipal | undefined): string => budgetSubject(principal, 'anonymous');

/**
 * Bounds what callers can make the server hold in sessions: open sessions per subject and in total, and
 * `initialize` calls per subject per minute. A client that re-initializes on every call, or a flood of
 * `initialize`, is refused with a JSON-RPC error (429 `-32003` per subject, 503 `-32006` at capacity) instead of
 * growing the heap until the process dies. With a shared store (`MCP_STORE=redis`) the counts and the rate hold for
 * the whole deployment; in memory, each process bounds itself. Asked through {@link McpAdmission} only.
 * @internal
 */
@Injectable()
export class SessionBudget {
  constructor(
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly open: OpenSessionCounts,
    @Inject(MCP_LIMIT_STORE) private readonly limits: McpLimitStore,
    @Optional() private readonly refusals?: McpAdmissionRefusals,
  ) {}

  /**
   * The refusal for a new session of this principal, or undefined when it may open one. Throws when a shared store
   * cannot be reached (the transport answers 503).
   */
  async refusal(principal: McpPrincipal | undefined): Promise<McpError | undefined> {
    const subject = sessionSubject(principal);
    const { maxSessions, maxSessionsPerSubject } = this.options.limits;
    // A draining replica takes no new sessions: the client opens one on another instance.
    if (this.open.draining)
      return new McpError(ErrorCode.UpstreamUnavailable, 'Unavailable: the server is shutting down; retry', {
        reason: 'shutting_down',
        retryAfter: 1,
      });
    if ((await this.open.count()) >= maxSessions) {
      this.refused('sessions_total', subject);
      return new McpError(ErrorCode.UpstreamUnavailable, 'Server busy: too many open sessions; retry later', {
        reason: 'session_capacity',
        retryAfter: 30,
      });
    }
    if ((await this.open.count(subject)) >= maxSessionsPerSubject) {
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
    this.refusals?.refused({ target: 'initialize', limit, reason: `initialize:${limit}`, subject });
  }
}

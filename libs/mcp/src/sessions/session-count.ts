import { Inject, Injectable } from '@nestjs/common';
import { McpSession } from './mcp-session';
import { McpSessionManager } from './mcp-session.manager';
import { MCP_SESSION_STORE, McpSessionStore } from '../stores/session.store';
import { OpenSessionCounts, sessionSubject } from '../admission/session-budget';

/**
 * Counts the open sessions of this replica per subject, for the session budget (admission/session-budget.ts): a
 * session is counted from {@link track} until it closes. With a shared store the store's counts are used instead,
 * so the caps hold for the whole deployment.
 * @internal
 */
@Injectable()
export class SessionCount extends OpenSessionCounts {
  private readonly open = new Map<string, number>();
  private readonly counted = new WeakSet<McpSession>();
  private total = 0;

  constructor(
    private readonly sessions: McpSessionManager,
    @Inject(MCP_SESSION_STORE) private readonly store: McpSessionStore,
  ) {
    super();
    sessions.onClose((session) => this.release(session));
  }

  get draining(): boolean {
    return this.sessions.draining;
  }

  async count(subject?: string): Promise<number> {
    if (this.store.shared && this.store.countOpen) return this.store.countOpen(subject);
    return subject === undefined ? this.total : (this.open.get(subject) ?? 0);
  }

  /** Counts a session that was opened (call right after creating it). */
  track(session: McpSession): void {
    const subject = sessionSubject(session.principal);
    this.open.set(subject, (this.open.get(subject) ?? 0) + 1);
    this.total++;
    this.counted.add(session);
  }

  private release(session: McpSession): void {
    if (!this.counted.has(session)) return;
    this.counted.delete(session);
    const subject = sessionSubject(session.principal);
    const left = (this.open.get(subject) ?? 1) - 1;
    if (left > 0) this.open.set(subject, left);
    else this.open.delete(subject);
    this.total--;
  }
}

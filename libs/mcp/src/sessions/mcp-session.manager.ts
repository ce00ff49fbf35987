import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../interfaces/mcp-module-options.interface';
import { MCP_SESSION_STORE, McpSessionStore } from '../stores/session.store';
import { ErrorCode, JsonRpcNotification } from '../wire/json-rpc';
import { McpError } from '../errors/mcp.error';
import { McpSession } from './mcp-session';

/** Sessions the idle sweep looks at per event-loop turn. */
const SWEEP_SLICE = 500;

/** How long the calls aborted at the end of the grace period get to write their `-32006` answer. */
const ANSWER_FLUSH_MS = 1_000;

const shutdownError = () =>
  new McpError(ErrorCode.UpstreamUnavailable, 'Unavailable: the server shut down before the call finished; retry', {
    reason: 'shutting_down',
    retryAfter: 1,
  });

/**
 * Owns the live sessions: creation, idle expiry (one sweep timer, not one per session), and the
 * notifications that go to every session (list changes, resource updates).
 */
@Injectable()
export class McpSessionManager implements OnModuleInit, OnModuleDestroy {
  private sweeper: NodeJS.Timeout | undefined;
  private sweeping = false;
  private readonly local = new Set<McpSession>();
  private readonly closeListeners: ((session: McpSession) => void)[] = [];

  constructor(
    @Inject(MCP_SESSION_STORE) private readonly store: McpSessionStore,
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
  ) {}

  onModuleInit(): void {
    const every = Math.min(60_000, Math.max(1_000, Math.floor(this.options.sessionIdleTimeoutMs / 4)));
    this.sweeper = setInterval(() => this.sweep(), every);
    this.sweeper.unref();
  }

  /**
   * Graceful shutdown: new calls are refused from now on (see {@link draining}), calls in flight get
   * up to `limits.shutdownGraceMs` to finish and answer, then every session is closed (calls still
   * running are aborted, SSE streams end). Nest runs this before it closes the HTTP server.
   */
  async onModuleDestroy(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.draining = true;
    new Logger('McpShutdown').log('draining: new sessions and calls are refused, /ready answers 503');
    const deadline = Date.now() + this.options.limits.shutdownGraceMs;
    while (this.inflight() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    if (this.inflight() > 0) {
      // Past the grace period: every call still running gets the documented -32006 answer (on its SSE stream too)
      // before the sessions and their streams close.
      for (const session of this.all())
        for (const call of session.inflight.values()) call.controller.abort(shutdownError());
      const written = Date.now() + ANSWER_FLUSH_MS;
      while (this.inflight() > 0 && Date.now() < written) await new Promise((r) => setTimeout(r, 10));
    }
    for (const session of [...this.store.values(), ...this.local]) this.close(session);
  }

  /** True once shutdown began: readiness is lost and new calls are refused. */
  draining = false;

  private inflight(): number {
    let n = 0;
    for (const session of this.all()) n += session.inflight.size;
    return n;
  }

  /** A new HTTP session, stored and found by id from now on. */
  createHttpSession(): McpSession {
    const session = new McpSession(McpSession.newId(), 'http');
    this.store.set(session);
    return session;
  }

  /** A session that is not looked up by id (stdio): tracked only for broadcasts. */
  attachLocal(session: McpSession): void {
    this.local.add(session);
  }

  /** A live HTTP session, or undefined when unknown or expired (expiry is checked here, too). */
  find(id: string): McpSession | undefined {
    const session = this.store.get(id);
    if (!session) return undefined;
    if (Date.now() - session.lastSeen > this.options.sessionIdleTimeoutMs && !session.busy) {
      this.close(session);
      return undefined;
    }
    session.lastSeen = Date.now();
    return session;
  }

  close(session: McpSession): void {
    this.store.delete(session.id);
    this.local.delete(session);
    session.close();
    for (const l of this.closeListeners) l(session);
  }

  onClose(listener: (session: McpSession) => void): void {
    this.closeListeners.push(listener);
  }

  get size(): number {
    return this.store.size + this.local.size;
  }

  /** Tells subscribers of `uri` that it changed (`notifications/resources/updated`). */
  resourceUpdated(uri: string): void {
    const message: JsonRpcNotification = { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } };
    for (const session of this.all()) {
      if (session.initialized && session.subscriptions.has(uri)) session.standalone?.send(message);
    }
  }

  /** Sends `message` on the standalone stream of every initialized session (list changes). */
  broadcast(message: JsonRpcNotification): void {
    for (const session of this.all()) if (session.initialized) session.standalone?.send(message);
  }

  private *all(): IterableIterator<McpSession> {
    yield* this.store.values();
    yield* this.local;
  }

  /**
   * Closes idle sessions a slice at a time, yielding to the event loop between slices: expiring tens of thousands
   * of sessions at once must not hold up the requests of everyone else.
   */
  private sweep(): void {
    if (this.sweeping) return;
    this.sweeping = true;
    const cutoff = Date.now() - this.options.sessionIdleTimeoutMs;
    const sessions = this.store.values();
    const slice = (): void => {
      for (let seen = 0; seen < SWEEP_SLICE; seen++) {
        const next = sessions.next();
        if (next.done) {
          this.sweeping = false;
          return;
        }
        if (next.value.lastSeen < cutoff && !next.value.busy) this.close(next.value);
      }
      setImmediate(slice);
    };
    slice();
  }
}

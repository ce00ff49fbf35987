import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit, Optional } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { MCP_SESSION_STORE, McpSessionStore } from '../stores/session.store';
import { JsonRpcId, JsonRpcNotification, JsonRpcResponse } from '../wire/json-rpc';
import { MCP_MESSAGE_BUS, McpMessageBus } from '../stores/message.bus';
import { InMemoryMessageBus } from '../stores/in-memory-message.bus';
import { McpSession } from './mcp-session';
import { ChangeListeners } from './change-listeners';
import { drainCalls } from './session-drain';
import { sweepIdleSessions } from './idle-sessions.sweep';

/** What travels on the bus between replicas. */
interface BusMessage {
  uri?: string;
  message?: unknown;
  sessionId?: string;
  requestId?: JsonRpcId;
  by?: string;
}

/** How often a session held here is checked against a shared store (its expiry pushed back, its deletion seen). */
const SHARED_CHECK_MS = 1_000;

/**
 * Owns the sessions this replica serves: creation, the shared metadata in the {@link McpSessionStore} (saved on
 * initialize and on every change, its expiry pushed back as the session is used), the live objects (streams, calls
 * in flight) in a per-replica map, idle expiry (one sweep timer, not one per session), and the notifications that go
 * to every session (list changes, resource updates). A session created on another replica is rebuilt here from its
 * record on first use.
 */
@Injectable()
export class McpSessionManager implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('McpSessions');
  private sweeper: NodeJS.Timeout | undefined;
  private sweeping = false;
  /** HTTP sessions held by this replica, by id. */
  private readonly live = new Map<string, McpSession>();
  /** Sessions never looked up by id (stdio). */
  private readonly local = new Set<McpSession>();
  private readonly closeListeners: ((session: McpSession, ended: boolean) => void)[] = [];
  /** 2026-07-28 `subscriptions/listen` streams held here: they get the same changes as the sessions' streams. */
  readonly listeners = new ChangeListeners();
  /** Creation times of the records this replica wrote (kept in later saves). */
  private readonly createdAt = new WeakMap<McpSession, number>();

  /** This replica, as named in bus messages (to skip its own). */
  private readonly replica = randomUUID();
  private readonly bus: McpMessageBus;

  constructor(
    @Inject(MCP_SESSION_STORE) private readonly store: McpSessionStore,
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
    @Optional() @Inject(MCP_MESSAGE_BUS) bus?: McpMessageBus,
  ) {
    this.bus = bus ?? new InMemoryMessageBus();
  }

  onModuleInit(): void {
    const every = Math.min(60_000, Math.max(1_000, Math.floor(this.options.sessionIdleTimeoutMs / 4)));
    this.sweeper = setInterval(() => this.sweep(), every);
    this.sweeper.unref();
    // Not awaited: with Redis down at boot, the replica starts (not ready) and subscribes once Redis is back.
    const on = (topic: string, handler: (m: BusMessage) => void) =>
      void this.bus
        .subscribe(topic, (m) => handler(m as BusMessage))
        .catch((e: Error) => this.logger.error(`bus: cannot subscribe to ${topic}: ${e.message}`));
    on('resource-updated', (m) => this.deliverResourceUpdated(m.uri!));
    on('broadcast', (m) => this.deliverBroadcast(m.message as JsonRpcNotification));
    on('cancel', (m) => this.live.get(m.sessionId!)?.cancel(m.requestId as JsonRpcId));
    on('response', (m) => this.live.get(m.sessionId!)?.resolveResponse(m.message as JsonRpcResponse));
    on('session-ended', (m) => {
      const held = m.by !== this.replica ? this.live.get(m.sessionId!) : undefined;
      if (held) this.release(held, true);
    });
    on('session-saved', (m) => {
      if (m.by !== this.replica) void this.refresh(m.sessionId!);
    });
  }

  /**
   * Graceful shutdown: new calls are refused from now on (see {@link draining}), calls in flight get
   * up to `limits.shutdownGraceMs` to finish and answer, then every session is released here (calls still
   * running are aborted, SSE streams end). Their records stay in the store: with a shared store, the sessions
   * go on on the other replicas. Nest runs this before it closes the HTTP server.
   */
  async onModuleDestroy(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.draining = true;
    new Logger('McpShutdown').log('draining: new sessions and calls are refused, /ready answers 503');
    await drainCalls(() => this.all(), this.options.limits.shutdownGraceMs);
    for (const session of [...this.live.values(), ...this.local]) this.release(session);
    this.listeners.endAll();
  }

  /** True once shutdown began: readiness is lost and new calls are refused. */
  draining = false;

  /** A new HTTP session, held here and found by id from now on; shared once {@link persist}ed (after initialize). */
  createHttpSession(): McpSession {
    const session = new McpSession(McpSession.newId(), 'http');
    this.live.set(session.id, session);
    return session;
  }

  /** A session that is not looked up by id (stdio): tracked only for broadcasts. */
  attachLocal(session: McpSession): void {
    this.local.add(session);
  }

  /**
   * Saves an initialized HTTP session's metadata to the store, and again whenever it changes (log level,
   * subscriptions), so any replica can serve it.
   */
  async persist(session: McpSession): Promise<void> {
    if (!this.createdAt.has(session)) this.createdAt.set(session, Date.now());
    session.onChange = () =>
      void this.save(session).catch((e: Error) => this.logger.error(`session store: save failed: ${e.message}`));
    await this.save(session);
  }

  private async save(session: McpSession): Promise<void> {
    session.touchedAt = Date.now();
    await this.store.save(session.toRecord(this.createdAt.get(session)), this.options.sessionIdleTimeoutMs);
    // Other replicas holding a copy (its GET stream, say) take the change: subscriptions, log level.
    if (this.store.shared) await this.publish('session-saved', { sessionId: session.id, by: this.replica });
  }

  /** A copy held here takes what another replica saved. */
  private async refresh(id: string): Promise<void> {
    const held = this.live.get(id);
    if (!held) return;
    const record = await this.store.get(id).catch(() => undefined);
    if (!record) return;
    held.logLevel = record.logLevel;
    held.subscriptions.clear();
    for (const uri of record.subscriptions) held.subscriptions.add(uri);
  }

  /** A client's `notifications/cancelled` for a call that runs on another replica. */
  forwardCancel(session: McpSession, requestId: JsonRpcId): void {
    void this.publish('cancel', { sessionId: session.id, requestId });
  }

  /** A client's answer to a server request (elicitation, sampling, roots) that waits on another replica. */
  forwardResponse(session: McpSession, message: JsonRpcResponse): void {
    void this.publish('response', { sessionId: session.id, message });
  }

  private publish(topic: string, message: BusMessage): Promise<void> {
    return this.bus
      .publish(topic, message)
      .catch((e: Error) => this.logger.error(`bus: cannot publish ${topic}: ${e.message}`));
  }

  /**
   * A live HTTP session, or undefined when unknown or expired. Held here: its idle expiry is checked, and the
   * store's expiry pushed back (at most every tenth of the idle timeout); a record gone from the store (deleted or
   * expired elsewhere) ends the local copy too. Not held here: rebuilt from the store's record.
   */
  async find(id: string): Promise<McpSession | undefined> {
    const idle = this.options.sessionIdleTimeoutMs;
    const held = this.live.get(id);
    if (held) {
      const now = Date.now();
      if (now - held.lastSeen > idle && !held.busy) {
        this.close(held);
        return undefined;
      }
      held.lastSeen = now;
      // Only sessions with a record (persisted after initialize; legacy HTTP+SSE sessions never are).
      // A shared store is checked at most once a second per session here (DELETE elsewhere arrives at once on the
      // bus; the check covers a missed message); a local one every tenth of the idle timeout.
      const every = this.store.shared ? SHARED_CHECK_MS : idle / 10;
      if (held.onChange && now - held.touchedAt > every) {
        held.touchedAt = now;
        if (!(await this.store.touch(id, idle))) {
          this.release(held);
          return undefined;
        }
      }
      return held;
    }
    const record = await this.store.get(id);
    if (!record) return undefined;
    // Another replica may have rebuilt it meanwhile (two requests at once): keep the first.
    const raced = this.live.get(id);
    if (raced) return raced;
    const session = McpSession.fromRecord(record);
    this.createdAt.set(session, record.createdAt);
    session.onChange = () =>
      void this.save(session).catch((e: Error) => this.logger.error(`session store: save failed: ${e.message}`));
    this.live.set(id, session);
    await this.store.touch(id, idle);
    return session;
  }

  /** Ends a session everywhere: DELETE, a failed initialize. Its record is removed from the store (never throws). */
  async close(session: McpSession): Promise<void> {
    this.release(session, true);
    if (session.transport !== 'http') return;
    await this.store
      .delete(session.id)
      .catch((e: Error) => this.logger.error(`session store: delete failed: ${e.message}`));
    // Before the caller answers: the other replicas drop their copies before the client's next request.
    if (this.store.shared) await this.publish('session-ended', { sessionId: session.id, by: this.replica });
  }

  /** Ends this replica's copy only (idle here, shutdown): streams end and calls abort; the record stays shared. */
  private release(session: McpSession, ended = false): void {
    this.live.delete(session.id);
    this.local.delete(session);
    session.close();
    for (const l of this.closeListeners) l(session, ended);
  }

  /** `listener` runs when a session ends here: `ended` everywhere (DELETE, expiry), or only this replica's copy. */
  onClose(listener: (session: McpSession, ended: boolean) => void): void {
    this.closeListeners.push(listener);
  }

  /** Sessions held by this replica. */
  get size(): number {
    return this.live.size + this.local.size;
  }

  /** Tells subscribers of `uri` that it changed (`notifications/resources/updated`), on every replica. */
  resourceUpdated(uri: string): void {
    void this.publish('resource-updated', { uri });
  }

  /** Sends `message` on the standalone stream of every initialized session (list changes), on every replica. */
  broadcast(message: JsonRpcNotification): void {
    void this.publish('broadcast', { message });
  }

  private deliverResourceUpdated(uri: string): void {
    const message: JsonRpcNotification = { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } };
    for (const session of this.all()) {
      if (session.initialized && session.subscriptions.has(uri)) session.standalone?.send(message);
    }
    this.listeners.deliverUri(uri);
  }

  private deliverBroadcast(message: JsonRpcNotification): void {
    for (const session of this.all()) if (session.initialized) session.standalone?.send(message);
    this.listeners.deliverList(message);
  }

  private *all(): IterableIterator<McpSession> {
    yield* this.live.values();
    yield* this.local;
  }

  /**
   * Releases sessions idle here, a slice at a time (see sweepIdleSessions). Their records expire in the store on
   * their own (the same idle timeout, pushed back by whichever replica serves them).
   */
  private sweep(): void {
    if (this.sweeping) return;
    this.sweeping = true;
    const cutoff = Date.now() - this.options.sessionIdleTimeoutMs;
    sweepIdleSessions(
      this.live.values(),
      cutoff,
      (s) => this.release(s),
      () => (this.sweeping = false),
    );
  }
}

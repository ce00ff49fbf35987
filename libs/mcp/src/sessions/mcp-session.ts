import { randomBytes } from 'node:crypto';
import { LOGGING_LEVELS, LoggingLevel } from '../wire/logging-level';
import { McpClientInfo } from '../wire/client-info';
import { McpError } from '../errors/mcp.error';
import { ErrorCode, JsonRpcId, JsonRpcMessage, JsonRpcResponse } from '../wire/json-rpc';
import { MessageSink } from '../wire/message-sink';
import { EraFeatures, ProtocolVersion, eraFeatures } from '../wire/protocol-version';
import { McpSessionRecord } from '../stores/session.store';
import { McpPrincipal, budgetSubject } from '../auth/mcp-principal';

interface PendingRequest {
  resolve(result: Record<string, unknown>): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/** A call in progress, for cancellation. @internal */
export interface InflightCall {
  controller: AbortController;
  cancelled: boolean;
}

/**
 * One MCP session: what was negotiated, what is in flight, and where unrelated messages go.
 * Lives in the process that serves it; only its metadata is ever shared.
 * @internal
 */
export class McpSession {
  protocolVersion!: ProtocolVersion;
  era!: EraFeatures;
  initialized = false;
  clientInfo: McpClientInfo | undefined;
  clientCapabilities: Record<string, unknown> = {};
  logLevel: LoggingLevel = 'info';
  lastSeen = Date.now();
  closed = false;
  /** The standalone channel: the GET stream over HTTP, stdout over stdio. */
  standalone: MessageSink | undefined;
  principal: McpPrincipal | undefined;
  /** Opened by the legacy HTTP+SSE transport; such a session is not usable on the Streamable HTTP endpoint. */
  legacySse = false;
  /** A 2026-07-28 request's own context (no session): lives for one request, never stored or shared. */
  stateless = false;
  /** No `notifications/message` at all: a 2026-07-28 request that set no log level. */
  silent = false;
  readonly subscriptions = new Set<string>();
  readonly inflight = new Map<string, InflightCall>();
  private readonly pending = new Map<string, PendingRequest>();
  private nextId = 0;
  /** Set by the manager for shared sessions: the metadata changed and must be saved. */
  onChange?: () => void;
  /** When the store's expiry was last pushed back (epoch ms). */
  touchedAt = Date.now();

  constructor(
    readonly id: string,
    readonly transport: 'http' | 'stdio',
  ) {}

  /**
   * A session id: 256 random bits from the CSPRNG, base64url (43 visible ASCII characters). A UUIDv4 has only
   * 122 random bits; the corporate standard asks for cryptographically strong ids of at least 128.
   */
  static newId(): string {
    return randomBytes(32).toString('base64url');
  }

  negotiate(
    version: ProtocolVersion,
    clientInfo: McpClientInfo | undefined,
    capabilities: Record<string, unknown>,
  ): void {
    this.protocolVersion = version;
    this.era = eraFeatures(version);
    this.clientInfo = clientInfo;
    this.clientCapabilities = capabilities;
    this.initialized = true;
  }

  /**
   * The context of one 2026-07-28 request: what its `_meta` declared, for the handlers and the invocation stage that
   * 2025 sessions also serve. Nothing of it outlives the request.
   */
  static forRequest(
    transport: 'http' | 'stdio',
    version: ProtocolVersion,
    clientInfo: McpClientInfo | undefined,
    capabilities: Record<string, unknown>,
    logLevel: LoggingLevel | undefined,
    principal: McpPrincipal | undefined,
  ): McpSession {
    const session = new McpSession('', transport);
    session.negotiate(version, clientInfo, capabilities);
    session.stateless = true;
    session.principal = principal;
    if (logLevel) session.logLevel = logLevel;
    else session.silent = true;
    return session;
  }

  /** The shared part of this session (see {@link McpSessionRecord}). */
  toRecord(createdAt = Date.now()): McpSessionRecord {
    const owner = this.principal;
    return {
      id: this.id,
      protocolVersion: this.protocolVersion,
      clientInfo: this.clientInfo,
      clientCapabilities: this.clientCapabilities,
      logLevel: this.logLevel,
      subscriptions: [...this.subscriptions],
      owner: owner
        ? {
            subject: owner.subject ?? '',
            ...(owner.anonymous ? { anonymous: true } : {}),
            key: budgetSubject(owner, 'anonymous'),
          }
        : undefined,
      createdAt,
    };
  }

  /** Rebuilds a session another replica created from its record; live parts start empty. */
  static fromRecord(record: McpSessionRecord): McpSession {
    const session = new McpSession(record.id, 'http');
    session.negotiate(record.protocolVersion as ProtocolVersion, record.clientInfo, record.clientCapabilities);
    session.logLevel = record.logLevel;
    for (const uri of record.subscriptions) session.subscriptions.add(uri);
    if (record.owner)
      session.principal = {
        subject: record.owner.subject,
        scopes: new Set<string>(),
        claims: {},
        ...(record.owner.anonymous ? { anonymous: true, source: record.owner.key?.replace(/^anonymous@/, '') } : {}),
      };
    return session;
  }

  setLogLevel(level: LoggingLevel): void {
    this.logLevel = level;
    this.onChange?.();
  }

  subscribe(uri: string): void {
    if (this.subscriptions.has(uri)) return;
    this.subscriptions.add(uri);
    this.onChange?.();
  }

  unsubscribe(uri: string): void {
    if (this.subscriptions.delete(uri)) this.onChange?.();
  }

  /** The `Mcp-Session-Id` a client knows this session by: none over stdio and for a 2026-07-28 request. */
  get sessionId(): string | undefined {
    return this.transport === 'http' && !this.stateless ? this.id : undefined;
  }

  /** In use: a call is running or the standalone stream is connected, so idle expiry must wait. */
  get busy(): boolean {
    return this.inflight.size > 0 || (this.standalone as { connected?: boolean } | undefined)?.connected === true;
  }

  wantsLog(level: LoggingLevel): boolean {
    if (this.silent) return false;
    return LOGGING_LEVELS.indexOf(level) >= LOGGING_LEVELS.indexOf(this.logLevel);
  }

  /** Sends a server-to-client request on `sink` and waits for the client's response. */
  request(
    sink: MessageSink,
    method: string,
    params: Record<string, unknown>,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<Record<string, unknown>> {
    if (this.closed) return Promise.reject(new McpError(ErrorCode.ServerError, 'Session closed'));
    if (signal?.aborted) return Promise.reject(new McpError(ErrorCode.ServerError, 'Call cancelled'));
    const id = `srv-${++this.nextId}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        signal?.removeEventListener('abort', onAbort);
        sink.send({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: id, reason: 'Timed out' },
        });
        reject(new McpError(ErrorCode.Timeout, `The client did not answer ${method} in time`));
      }, timeoutMs);
      const onAbort = () => {
        clearTimeout(timer);
        this.pending.delete(id);
        sink.send({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: id, reason: 'Call cancelled' },
        });
        reject(new McpError(ErrorCode.ServerError, 'Call cancelled'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        resolve: (r) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(r);
        },
        reject: (e) => {
          signal?.removeEventListener('abort', onAbort);
          reject(e);
        },
        timer,
      });
      if (!sink.send({ jsonrpc: '2.0', id, method, params } as JsonRpcMessage)) {
        clearTimeout(timer);
        this.pending.delete(id);
        reject(new McpError(ErrorCode.ServerError, `No open stream to send ${method} to the client`));
      }
    });
  }

  /** Cancels the call `requestId` of this session when it runs here; false when it does not. */
  cancel(requestId: JsonRpcId): boolean {
    const call = this.inflight.get(McpSession.inflightKey(requestId));
    if (!call) return false;
    call.cancelled = true;
    call.controller.abort(new McpError(ErrorCode.ServerError, 'Request cancelled'));
    return true;
  }

  /** Routes a client's response to the server request waiting for it. Unknown ids are ignored. */
  resolveResponse(response: JsonRpcResponse): boolean {
    if (typeof response.id !== 'string') return false;
    const key = response.id;
    const waiting = this.pending.get(key);
    if (!waiting) return false;
    this.pending.delete(key);
    clearTimeout(waiting.timer);
    if ('result' in response) waiting.resolve(response.result);
    else {
      // The client's code is reported in data; ours stays a fixed server error.
      const { code, message } = response.error;
      waiting.reject(
        new McpError(ErrorCode.ServerError, `Client answered with an error: ${String(message).slice(0, 200)}`, {
          clientCode: code,
        }),
      );
    }
    return true;
  }

  static inflightKey(id: JsonRpcId): string {
    return `${typeof id}:${id}`;
  }

  /** Fails every server request still waiting for the client (it can no longer answer). */
  failPending(reason: string): void {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      this.pending.delete(id);
      p.reject(new McpError(ErrorCode.ServerError, reason));
    }
  }

  /** Ends the session: aborts calls in flight and fails every pending server request. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const call of this.inflight.values()) call.controller.abort(new Error('Session closed'));
    this.failPending('Session closed');
  }
}

import { randomBytes } from 'node:crypto';
import { LoggingLevel } from '../wire/logging-level';
import { McpClientInfo } from '../wire/client-info';
import { MessageSink } from '../wire/message-sink';
import { ProtocolVersion } from '../wire/protocol-version';
import { McpSessionRecord } from '../stores/session.store';
import { budgetSubject } from '../auth/mcp-principal';
import { McpPeer } from '../context/mcp-peer';

/**
 * One 2025 MCP session: the peer that initialized it, its subscriptions, and where unrelated messages go.
 * Lives in the process that serves it; only its metadata is ever shared.
 * @internal
 */
export class McpSession extends McpPeer {
  initialized = false;
  lastSeen = Date.now();
  /** The standalone channel: the GET stream over HTTP, stdout over stdio. */
  standalone: MessageSink | undefined;
  /** Opened by the legacy HTTP+SSE transport; such a session is not usable on the Streamable HTTP endpoint. */
  legacySse = false;
  readonly subscriptions = new Set<string>();
  /** Set by the manager for shared sessions: the metadata changed and must be saved. */
  onChange?: () => void;
  /** When the store's expiry was last pushed back (epoch ms). */
  touchedAt = Date.now();

  constructor(
    readonly id: string,
    transport: 'http' | 'stdio',
  ) {
    super(transport);
  }

  /**
   * A session id: 256 random bits from the CSPRNG, base64url (43 visible ASCII characters). A UUIDv4 has only
   * 122 random bits; the corporate standard asks for cryptographically strong ids of at least 128.
   */
  static newId(): string {
    return randomBytes(32).toString('base64url');
  }

  /** What `initialize` settled: the session is initialized from now on. */
  override negotiate(
    version: ProtocolVersion,
    clientInfo: McpClientInfo | undefined,
    capabilities: Record<string, unknown>,
  ): void {
    super.negotiate(version, clientInfo, capabilities);
    this.initialized = true;
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

  /** The `Mcp-Session-Id` a client knows this session by: none over stdio. */
  override get sessionId(): string | undefined {
    return this.transport === 'http' ? this.id : undefined;
  }

  /** In use: a call is running or the standalone stream is connected, so idle expiry must wait. */
  get busy(): boolean {
    return this.inflight.size > 0 || (this.standalone as { connected?: boolean } | undefined)?.connected === true;
  }
}

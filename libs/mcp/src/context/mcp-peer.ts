import { randomBytes } from 'node:crypto';
import { LOGGING_LEVELS, LoggingLevel } from '../wire/logging-level';
import { McpClientInfo } from '../wire/client-info';
import { McpError } from '../errors/mcp.error';
import { ErrorCode, JsonRpcId, JsonRpcMessage, JsonRpcResponse } from '../wire/json-rpc';
import { MessageSink } from '../wire/message-sink';
import { EraFeatures, ProtocolVersion, eraFeatures } from '../wire/protocol-version';
import { McpPrincipal } from '../auth/mcp-principal';
import { InflightCall } from './inflight-call';

interface PendingRequest {
  resolve(result: Record<string, unknown>): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * The client on the other end of one request or one session: what it negotiated or declared, what of it is in flight
 * here, and the server-to-client requests waiting for its answers. A 2026-07-28 request is served as a peer of its own
 * ({@link McpPeer.forRequest}), which lives for that request only; a 2025 session is the `McpSession` subclass.
 * @internal
 */
export class McpPeer {
  protocolVersion!: ProtocolVersion;
  era!: EraFeatures;
  clientInfo: McpClientInfo | undefined;
  clientCapabilities: Record<string, unknown> = {};
  logLevel: LoggingLevel = 'info';
  /** No `notifications/message` at all: a 2026-07-28 request that set no log level. */
  silent = false;
  principal: McpPrincipal | undefined;
  closed = false;
  readonly inflight = new Map<string, InflightCall>();
  private readonly pending = new Map<string, PendingRequest>();
  /**
   * Server-to-client request ids are `srv-<tag>-<n>`, the tag random per copy of the peer (made on its first request):
   * unique within a session across every replica that serves it, as MCP requires of a session's request ids. Each
   * replica holds its own copy of a session, and a client's answer that reaches another replica is forwarded over the
   * bus to all of them, where it may only resolve the request that asked it: with a bare counter every replica's
   * first request was `srv-1`, and a late answer to one replica's `srv-1` resolved another's (an elicitation given a
   * sampling result). A copy rebuilt in the same process gets a new tag; nothing in an id tells a client about other
   * sessions or which process asked.
   */
  private idTag: string | undefined;
  private sentRequests = 0;

  constructor(readonly transport: 'http' | 'stdio') {}

  /**
   * The peer of one 2026-07-28 request: what its `_meta` declared, for the handlers and the invocation stage that 2025
   * sessions also serve. Nothing of it outlives the request; it is never stored or shared.
   */
  static forRequest(
    transport: 'http' | 'stdio',
    version: ProtocolVersion,
    clientInfo: McpClientInfo | undefined,
    capabilities: Record<string, unknown>,
    logLevel: LoggingLevel | undefined,
    principal: McpPrincipal | undefined,
  ): McpPeer {
    const peer = new McpPeer(transport);
    peer.negotiate(version, clientInfo, capabilities);
    peer.principal = principal;
    if (logLevel) peer.logLevel = logLevel;
    else peer.silent = true;
    return peer;
  }

  /** What the client negotiated (2025: `initialize`) or declared (2026-07-28: the request's `_meta`). */
  negotiate(
    version: ProtocolVersion,
    clientInfo: McpClientInfo | undefined,
    capabilities: Record<string, unknown>,
  ): void {
    this.protocolVersion = version;
    this.era = eraFeatures(version);
    this.clientInfo = clientInfo;
    this.clientCapabilities = capabilities;
  }

  /** The `Mcp-Session-Id` a client knows this peer by: none, but for a 2025 session over HTTP. */
  get sessionId(): string | undefined {
    return undefined;
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
    const id = `srv-${(this.idTag ??= randomBytes(6).toString('base64url'))}-${++this.sentRequests}`;
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

  /** Cancels the call `requestId` of this peer when it runs here; false when it does not. */
  cancel(requestId: JsonRpcId): boolean {
    const call = this.inflight.get(McpPeer.inflightKey(requestId));
    if (!call) return false;
    call.cancelled = true;
    call.abort(new McpError(ErrorCode.ServerError, 'Request cancelled'));
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

  /** The key of a call in {@link inflight}: a number and a string id that look alike stay apart. */
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

  /** Ends the peer: aborts calls in flight and fails every pending server request. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const call of this.inflight.values()) call.abort(new Error('Session closed'));
    this.failPending('Session closed');
  }
}

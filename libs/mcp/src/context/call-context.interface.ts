import type { McpPrincipal } from '../auth/mcp-principal';
import { JsonRpcId } from '../wire/json-rpc';
import { LoggingLevel } from '../wire/logging-level';
import { McpClientInfo } from '../wire/client-info';

/** Sends `notifications/message` to the client of the current call, filtered by its `logging/setLevel`. */
export type McpClientLogger = Record<LoggingLevel, (data: unknown, logger?: string) => void>;

/** Options of a question to the client (`elicit`, `sample`, `listRoots`). */
export interface McpAskOptions {
  /** 2025 sessions: how long to wait for the client's answer. Default `clientRequestTimeoutMs` (5 minutes). */
  timeoutMs?: number;
  /**
   * 2026-07-28: the question's key in `inputRequests`/`inputResponses`. Default `<capability>_<n>` in asking order
   * (`elicitation_1`, `sampling_1`, `roots_1`), stable as long as the method asks in the same order each run.
   */
  key?: string;
}

/**
 * Everything a handler may know about, and do within, the current MCP call. Inject it with
 * `@McpCtx()` or read it in a guard or interceptor with `McpExecutionContext.create(ctx).getContext()`.
 */
export interface McpCallContext {
  /** The JSON-RPC id of the request. */
  readonly requestId: JsonRpcId;
  /** `tools/call`, `prompts/get` or `resources/read`. */
  readonly method: string;
  /** Tool or prompt name, or resource URI. */
  readonly target: string;
  readonly sessionId: string | undefined;
  readonly protocolVersion: string;
  readonly transport: 'http' | 'stdio';
  readonly clientInfo: McpClientInfo | undefined;
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  /** `params._meta` of the request, if any. */
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  /** Aborted when the client cancels the call, the session ends, or the server gives up on it. */
  readonly signal: AbortSignal;
  /** The caller (subject, scopes, claims of its token); undefined when authentication is off and over stdio. */
  principal?: McpPrincipal;
  /** Reports progress when the client asked for it; values must rise, and bursts are coalesced. */
  reportProgress(progress: number, total?: number, message?: string): void;
  /**
   * Over Streamable HTTP with a 2025-11-25 client: switches the answer to SSE and closes the
   * connection now, keeping the stream; the client reconnects with `Last-Event-ID` and gets the
   * rest (SSE polling, SEP-1699). Frees a connection during a long call. A no-op elsewhere.
   */
  closeSseStream(): void;
  /** Log lines for the client (not for the server's own logs). */
  readonly log: McpClientLogger;
  /**
   * `elicitation/create`; rejects with a clear error when the client did not declare `elicitation`. To a 2025
   * session it is a request on the call's stream; to a 2026-07-28 request it is a question of the call's
   * `InputRequiredResult`, and the method runs again, from the start, when the client retries with the answer
   * (see docs/protocol-eras.md, "Multi round-trip requests": ask before acting).
   */
  elicit(params: Record<string, unknown>, options?: McpAskOptions): Promise<Record<string, unknown>>;
  /** `sampling/createMessage`; rejects when the client did not declare `sampling`. Asked like {@link elicit}. */
  sample(params: Record<string, unknown>, options?: McpAskOptions): Promise<Record<string, unknown>>;
  /** `roots/list`; rejects when the client did not declare `roots`. Asked like {@link elicit}. */
  listRoots(options?: McpAskOptions): Promise<{ roots: { uri: string; name?: string }[] }>;
  /** The task this call runs as (`tasks/get` finds it by this id); undefined for a call answered in its request. */
  readonly taskId?: string;
  /**
   * For a tool declared with `task: { asksFirst: true }`: the line between the questions asked before the task exists
   * and the work. Everything before it runs in the request (its questions reach the client as in any call); here
   * the request answers with the task handle, and the method runs again from the start as the task, where the same
   * questions get the same answers at once. Keep what comes before it to questions. Resolves at once in a task's run
   * and in a call that is not becoming a task.
   */
  startTask(): Promise<void>;
}

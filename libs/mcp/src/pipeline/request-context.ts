import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { McpAdmission } from '../admission/mcp-admission.service';
import { McpPrincipal } from '../auth/mcp-principal';
import { JsonRpcRequest } from '../wire/json-rpc';
import { McpPeer } from '../context/mcp-peer';
import { MessageSink } from '../wire/message-sink';
import { RequestStateCodec } from './request-state.codec';
import { CallQuestions } from './input-rounds';
import { IdempotencyKeeper } from './idempotency.keeper';

/** What the invocation stage needs of the request it runs in. @internal */
export interface RequestContext {
  /** Correlation id of the request (X-Request-Id over HTTP, generated over stdio). */
  requestId: string | undefined;
  /** The authenticated caller of this request, if any. */
  principal: McpPrincipal | undefined;
  /** Aborts this request's signal (timeouts). */
  abort(reason: unknown): void;
  /** The JSON-RPC request itself. */
  message: JsonRpcRequest;
  /** The client of this request: its 2025 session, or the peer of one 2026-07-28 request. */
  peer: McpPeer;
  /** Where this request's own messages go (progress, logs, server requests). */
  sink: MessageSink;
  signal: AbortSignal;
  options: ResolvedMcpOptions;
  /** Admits the call (its rate and concurrency budgets); a task's run passes them when the task is created. */
  admission: Pick<McpAdmission, 'call'>;
  /** Seals and opens 2026-07-28 `requestState`. */
  states: RequestStateCodec;
  /** Keeps first answers of calls keyed for replay; absent where calls are never keyed (a task's run). */
  idempotency?: IdempotencyKeeper;
  /** Set when the call runs as a task: its id, and where its questions wait for their answers. */
  task?: { id: string; questions: CallQuestions };
  /** Where the call's downstream clients note their names (call-scope.ts), when a downstream client exists. */
  downstreams?: string[];
}

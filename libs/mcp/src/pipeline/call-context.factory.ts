import type { McpPrincipal } from '../auth/mcp-principal';
import { McpCallContext } from '../context/call-context.interface';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { JsonRpcRequest } from '../wire/json-rpc';
import { McpPeer } from '../context/mcp-peer';
import { MessageSink } from '../wire/message-sink';
import { ProgressReporter } from './progress-reporter';
import { CallQuestions } from './input-rounds';
import { createClientLogger } from './client-logger.factory';
import { createClientQuestions } from './client-questions.factory';

/** What a call may have beyond its request. @internal */
export interface CallExtras {
  /** Where its questions go instead of a server request: a 2026-07-28 call's rounds, or its task. */
  questions?: CallQuestions;
  /** The task the call runs as. */
  taskId?: string;
  /** `ctx.startTask()` of a call about to become a task (never resolves); absent, it resolves at once. */
  startTask?: () => Promise<void>;
  /** A 2025 call about to become a task: the answers its questions got, by key, for the task's run to reuse. */
  answerLog?: Record<string, unknown>;
}

/** The context plus the engine's handle to end it. @internal */
export interface LiveCallContext extends McpCallContext {
  end(): void;
}

/**
 * Builds the {@link McpCallContext} of one request. Messages it sends (progress, logs, server
 * requests) go on `sink`, the stream of this request.
 * @internal
 */
export function createCallContext(
  peer: McpPeer,
  principal: McpPrincipal | undefined,
  request: JsonRpcRequest,
  target: string,
  sink: MessageSink,
  signal: AbortSignal,
  options: ResolvedMcpOptions,
  extras: CallExtras = {},
): LiveCallContext {
  // One flag the logger, the questions and the progress read: once the engine ends the call, none sends.
  const call = { ended: false };
  const meta = request.params?._meta as Record<string, unknown> | undefined;
  const token = meta?.progressToken as string | number | undefined;
  // Built on first use: most calls never report progress.
  let progress: ProgressReporter | undefined;
  const timeoutMs = options.clientRequestTimeoutMs;
  const { elicit, sample, listRoots } = createClientQuestions(peer, sink, signal, timeoutMs, extras, call);
  return {
    requestId: request.id,
    method: request.method,
    target,
    sessionId: peer.sessionId,
    protocolVersion: peer.protocolVersion,
    transport: peer.transport,
    clientInfo: peer.clientInfo,
    clientCapabilities: peer.clientCapabilities,
    meta,
    signal,
    principal,
    log: createClientLogger(peer, sink, call),
    reportProgress: (p, total, message) => {
      if (call.ended) return;
      progress ??= new ProgressReporter(
        typeof token === 'string' || typeof token === 'number' ? token : undefined,
        sink,
        options.progressIntervalMs,
      );
      progress.report(p, total, message);
    },
    closeSseStream: () => {
      if (!call.ended) sink.closeConnection?.();
    },
    elicit,
    sample,
    listRoots,
    taskId: extras.taskId,
    startTask: () => (extras.startTask && !call.ended ? extras.startTask() : Promise.resolve()),
    end: () => {
      call.ended = true;
      progress?.end();
    },
  };
}

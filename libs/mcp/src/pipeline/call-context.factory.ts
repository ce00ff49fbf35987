import type { McpPrincipal } from '../auth/mcp-principal';
import { McpError } from '../errors/mcp.error';
import { LoggingLevel } from '../wire/logging-level';
import { McpCallContext, McpClientLogger } from '../context/call-context.interface';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { ErrorCode, JsonRpcRequest } from '../wire/json-rpc';
import { McpSession } from '../sessions/mcp-session';
import { MessageSink } from '../wire/message-sink';
import { ProgressReporter } from './progress-reporter';
import { CallQuestions } from './input-rounds';

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
  session: McpSession,
  principal: McpPrincipal | undefined,
  request: JsonRpcRequest,
  target: string,
  sink: MessageSink,
  signal: AbortSignal,
  options: ResolvedMcpOptions,
  extras: CallExtras = {},
): LiveCallContext {
  const { questions, answerLog } = extras;
  const logged = new Map<string, number>();
  const meta = request.params?._meta as Record<string, unknown> | undefined;
  const token = meta?.progressToken as string | number | undefined;
  // Built on first use: most calls never report progress.
  let progress: ProgressReporter | undefined;
  let ended = false;
  const send = (level: LoggingLevel, data: unknown, logger?: string): void => {
    if (ended || !session.wantsLog(level)) return;
    const params: Record<string, unknown> = { level, data };
    if (logger) params.logger = logger;
    sink.send({ jsonrpc: '2.0', method: 'notifications/message', params });
  };
  // A plain object of small functions (destructuring `ctx.log` keeps working). Not a lazy getter: a context
  // object with an accessor measured a p99 four times higher under load (14 ms against 4 at 16 connections).
  const log: McpClientLogger = {
    debug: (data, logger) => send('debug', data, logger),
    info: (data, logger) => send('info', data, logger),
    notice: (data, logger) => send('notice', data, logger),
    warning: (data, logger) => send('warning', data, logger),
    error: (data, logger) => send('error', data, logger),
    critical: (data, logger) => send('critical', data, logger),
    alert: (data, logger) => send('alert', data, logger),
    emergency: (data, logger) => send('emergency', data, logger),
  };

  const ask = (
    capability: string,
    method: string,
    params: Record<string, unknown>,
    o?: { timeoutMs?: number; key?: string },
  ) => {
    // 2026-07-28: no server requests; the question goes into the call's InputRequiredResult (MRTR). A task's questions
    // wait in the task, whatever the era.
    if (questions || session.era.modern)
      return askInRound(questions, session.clientCapabilities, capability, method, params, o?.key);
    if (!session.clientCapabilities[capability]) {
      return Promise.reject(
        new McpError(
          ErrorCode.ServerError,
          `The client did not declare the "${capability}" capability, so ${method} cannot be used`,
          {
            reason: 'client_capability_missing',
            capability,
          },
        ),
      );
    }
    if (ended) return Promise.reject(new McpError(ErrorCode.ServerError, 'The call has already ended'));
    const answer = session.request(sink, method, params, o?.timeoutMs ?? options.clientRequestTimeoutMs, signal);
    if (!answerLog) return answer;
    // Keyed as a task's questions are (`elicitation_1`, …), so its run finds each answer under the same key.
    // Only questions without a key of their own take a number, as the task's run numbers them (nextKey): otherwise an
    // answer would be replayed for another question.
    let key = o?.key;
    if (key === undefined) {
      const n = (logged.get(capability) ?? 0) + 1;
      logged.set(capability, n);
      key = `${capability}_${n}`;
    }
    return answer.then((value) => ((answerLog[key] = value), value));
  };

  return {
    requestId: request.id,
    method: request.method,
    target,
    sessionId: session.sessionId,
    protocolVersion: session.protocolVersion,
    transport: session.transport,
    clientInfo: session.clientInfo,
    clientCapabilities: session.clientCapabilities,
    meta,
    signal,
    principal,
    log,
    reportProgress: (p, total, message) => {
      if (ended) return;
      progress ??= new ProgressReporter(
        typeof token === 'string' || typeof token === 'number' ? token : undefined,
        sink,
        options.progressIntervalMs,
      );
      progress.report(p, total, message);
    },
    closeSseStream: () => {
      if (!ended) sink.closeConnection?.();
    },
    elicit: (params, o) => {
      if (!session.era.elicitation) {
        return Promise.reject(
          new McpError(ErrorCode.ServerError, `Elicitation does not exist in protocol ${session.protocolVersion}`, {
            reason: 'client_capability_missing',
            capability: 'elicitation',
          }),
        );
      }
      return ask('elicitation', 'elicitation/create', params, o);
    },
    sample: (params, o) => ask('sampling', 'sampling/createMessage', params, o),
    listRoots: (o) => ask('roots', 'roots/list', {}, o) as Promise<{ roots: { uri: string; name?: string }[] }>,
    taskId: extras.taskId,
    startTask: () => (extras.startTask && !ended ? extras.startTask() : Promise.resolve()),
    end: () => {
      ended = true;
      progress?.end();
    },
  };
}

/**
 * A question of a 2026-07-28 call: `-32021` when the client did not declare the capability it needs, otherwise asked
 * in the round of the call (answered at once from `inputResponses` or `requestState`, or left open for later).
 */
function askInRound(
  rounds: CallQuestions | undefined,
  declared: Record<string, unknown>,
  capability: string,
  method: string,
  params: Record<string, unknown>,
  key: string | undefined,
): Promise<Record<string, unknown>> {
  if (!declared[capability]) {
    return Promise.reject(
      new McpError(
        ErrorCode.MissingRequiredClientCapability,
        `Missing required client capability: ${method} needs "${capability}", which the client did not declare`,
        { requiredCapabilities: { [capability]: {} } },
      ),
    );
  }
  if (!rounds) {
    return Promise.reject(
      new McpError(ErrorCode.ServerError, `${method} cannot be asked during this request (only tools, prompts, reads)`),
    );
  }
  return rounds.ask(key ?? rounds.nextKey(capability), { method, params });
}

import { McpCallContext } from '../context/call-context.interface';
import { McpError } from '../errors/mcp.error';
import { McpPeer } from '../context/mcp-peer';
import { ErrorCode } from '../wire/json-rpc';
import { MessageSink } from '../wire/message-sink';
import { CallQuestions } from './input-rounds';

/** The questions a call may ask its client. @internal */
export type ClientQuestions = Pick<McpCallContext, 'elicit' | 'sample' | 'listRoots'>;

/**
 * Builds `ctx.elicit`, `ctx.sample` and `ctx.listRoots` of one call: a server request on the call's stream
 * (2025 sessions, waiting `defaultTimeoutMs` unless told otherwise), or a question in the call's round or
 * task (2026-07-28, tasks). `answerLog`, when given, records each answer under its key for the task the call
 * is about to become.
 * @internal
 */
export function createClientQuestions(
  peer: McpPeer,
  sink: MessageSink,
  signal: AbortSignal,
  defaultTimeoutMs: number,
  { questions, answerLog }: { questions?: CallQuestions; answerLog?: Record<string, unknown> },
  call: { readonly ended: boolean },
): ClientQuestions {
  // Made on a 2025 task's first unkeyed question only: most calls ask none.
  let logged: Map<string, number> | undefined;
  const ask = (
    capability: string,
    method: string,
    params: Record<string, unknown>,
    o?: { timeoutMs?: number; key?: string },
  ) => {
    // 2026-07-28: no server requests; the question goes into the call's InputRequiredResult (MRTR). A task's questions
    // wait in the task, whatever the era.
    if (questions || peer.era.modern)
      return askInRound(questions, peer.clientCapabilities, capability, method, params, o?.key);
    if (!peer.clientCapabilities[capability]) return Promise.reject(undeclared(capability, method));
    if (call.ended) return Promise.reject(new McpError(ErrorCode.ServerError, 'The call has already ended'));
    const answer = peer.request(sink, method, params, o?.timeoutMs ?? defaultTimeoutMs, signal);
    if (!answerLog) return answer;
    // Keyed as a task's questions are (`elicitation_1`, …), so its run finds each answer under the same key.
    // Only questions without a key of their own take a number, as the task's run numbers them (nextKey): otherwise an
    // answer would be replayed for another question.
    let key = o?.key;
    if (key === undefined) {
      logged ??= new Map();
      const n = (logged.get(capability) ?? 0) + 1;
      logged.set(capability, n);
      key = `${capability}_${n}`;
    }
    return answer.then((value) => ((answerLog[key] = value), value));
  };
  return {
    elicit: (params, o) => {
      if (!peer.era.elicitation) {
        return Promise.reject(
          new McpError(ErrorCode.ServerError, `Elicitation does not exist in protocol ${peer.protocolVersion}`, {
            reason: 'client_capability_missing',
            capability: 'elicitation',
          }),
        );
      }
      return ask('elicitation', 'elicitation/create', params, o);
    },
    sample: (params, o) => ask('sampling', 'sampling/createMessage', params, o),
    listRoots: (o) => ask('roots', 'roots/list', {}, o) as Promise<{ roots: { uri: string; name?: string }[] }>,
  };
}

/** A 2025 question the client cannot answer: it did not declare the capability. */
function undeclared(capability: string, method: string): McpError {
  return new McpError(
    ErrorCode.ServerError,
    `The client did not declare the "${capability}" capability, so ${method} cannot be used`,
    {
      reason: 'client_capability_missing',
      capability,
    },
  );
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

import { InvalidParamsError, McpError, RateLimitedError, TimeoutError, ToolExecutionError } from '../errors/mcp.error';
import { callerSubject } from '../auth/mcp-principal';
import { toJsonRpcError, toolErrorText } from '../errors/error-mapper';
import { ErrorCode } from '../wire/json-rpc';
import { McpCallContext } from '../context/call-context.interface';
import { createCallContext } from './call-context.factory';
import { McpCallLimits } from '../admission/mcp-admission.service';
import { RequestContext } from './request-context';
import { InputRounds } from './input-rounds';
import { RequestStateBinding } from './request-state.codec';
import { CallScope, runInCallScope } from './call-scope';

/** The three kinds of provider call; they differ only in what a domain failure becomes. @internal */
export type InvocationKind = 'tool' | 'prompt' | 'resource';

/** One call of a provider method, as the handler of its kind describes it. @internal */
export interface Invocation {
  kind: InvocationKind;
  /** Tool name, prompt name or resource URI: what limits count, logs name and the context carries. */
  target: string;
  /**
   * The provider method, wrapped once at boot in Nest's pipeline (a registry entry's `handler`); {@link invokeProvider}
   * calls it with `args` and this call's context.
   */
  method: (args: Record<string, unknown>, ctx: McpCallContext) => unknown;
  /** What the method gets: a tool's validated arguments, a prompt's arguments, a resource template's variables. */
  args: Record<string, unknown>;
  /** A tool's own `rateLimit` (calls per minute, concurrent calls, per caller). */
  rateLimit?: McpCallLimits;
  /** Gives up after this many ms: the call's signal is aborted and the client gets `-32004`. */
  timeoutMs?: number;
  /** The call becomes a task where the method calls `ctx.startTask()` (a tool declared `task: { asksFirst: true }`). */
  becomesTask?: boolean;
  /**
   * A tool call keyed for replay (`mutation.idempotency: { key, replay: true }`): the argument holding the key and the
   * arguments as sent. A repeat from the same caller is answered with the first call's value (see IdempotencyKeeper).
   */
  once?: { argument: string; arguments: Record<string, unknown> };
}

/**
 * What a call produced: the provider's value, a failure the model can act on (a tool answers it as `isError`,
 * a prompt or a resource as `-32602`), or (2026-07-28) the questions it is waiting for, as the `InputRequiredResult` to
 * answer with. Protocol errors are thrown.
 * @internal
 */
export type InvocationOutcome =
  | CallOutcome
  /** The method reached `ctx.startTask()`: the answers its questions got so far, by key, for the task's run. */
  | { startTask: Record<string, unknown> };
/** The outcome of a call that cannot become a task. @internal */
export type CallOutcome =
  /** `replayed`: the value is a first call's, kept for its idempotency key; the method did not run. */
  { value: unknown; replayed?: true } | { failure: string } | { inputRequired: Record<string, unknown> };

/**
 * The one invocation stage every tool, prompt and resource call goes through, in both protocol eras: the call
 * context, the caller's concurrency and rate limits, the timeout, and one mapping of whatever the provider threw.
 * The handlers of each kind do only what differs: argument checks before, result normalisation after.
 * @internal
 */
export function invoke(request: RequestContext, call: Invocation & { becomesTask?: false }): Promise<CallOutcome>;
export function invoke(request: RequestContext, call: Invocation): Promise<InvocationOutcome>;
export async function invoke(request: RequestContext, call: Invocation): Promise<InvocationOutcome> {
  // A task's run is never keyed here: the task keeps its own result.
  const entry =
    call.once && request.idempotency && !request.task && !call.becomesTask
      ? await request.idempotency.enter({
          subject: callerSubject(request.principal, request.peer.transport),
          tool: call.target,
          timeoutMs: call.timeoutMs ?? request.options.limits.toolTimeoutMs,
          ...call.once,
        })
      : undefined;
  if (!entry) return invokeOnce(request, call);
  if ('replay' in entry) return { value: entry.replay, replayed: true };
  // Only a value is kept; a failure, an open question, a timeout or a cancellation gives the key back for a retry.
  let kept = false;
  try {
    const outcome = await invokeOnce(request, call);
    if ('value' in outcome) {
      await entry.keep(outcome.value);
      kept = true;
    }
    return outcome;
  } finally {
    if (!kept) await entry.release();
  }
}

/**
 * The provider's method, at last: `call.method` is `instance[methodName]` of the decorated provider inside Nest's
 * pipeline, wrapped once at boot (`McpPipelineFactory.wrap`, called by discovery/): Nest's guards, interceptors and
 * pipes run, then the method with the call's arguments and context. A run-time entry (`McpRegistry.addResource`, say)
 * runs its own function.
 */
function invokeProvider(call: Invocation, ctx: McpCallContext, scope: () => CallScope): Promise<unknown> {
  try {
    // The call as code inside the method finds it (a downstream client's deadline, signal and caller). Called at once,
    // not on a later tick: a method wrapped in Nest's pipeline answers with a promise already (no second one is made).
    return Promise.resolve(runInCallScope(scope, () => call.method(call.args, ctx)));
  } catch (error) {
    // A provider that throws synchronously fails like one that rejects.
    return Promise.reject(error);
  }
}

/** One run of the provider method: context, limits, timeout, the mapping of what it threw. */
async function invokeOnce(request: RequestContext, call: Invocation): Promise<InvocationOutcome> {
  const { task } = request;
  const rounds = !task && request.peer.era.modern ? await openRounds(request, call) : undefined;
  // A call that may become a task: ctx.startTask() ends this run, the way an open question does.
  const line = call.becomesTask && !task ? taskLine(request.peer.era.modern) : undefined;
  const ctx = createCallContext(
    request.peer,
    request.principal,
    request.message,
    call.target,
    request.sink,
    request.signal,
    request.options,
    { questions: task?.questions ?? rounds?.rounds, taskId: task?.id, startTask: line?.start, answerLog: line?.log },
  );
  let value: unknown;
  try {
    value = await request.admission.call(request.peer, call.target, call.rateLimit, () => {
      const scope = (): CallScope => ({
        signal: request.signal,
        deadline: call.timeoutMs === undefined ? undefined : Date.now() + call.timeoutMs,
        principal: request.principal,
        requestId: request.requestId,
        target: call.target,
        downstreams: request.downstreams,
        taskId: task?.id,
      });
      let work = invokeProvider(call, ctx, scope);
      // A question left open ends the call: its answer comes with the client's retry.
      if (rounds) work = Promise.race([work, rounds.rounds.open.then(() => OPEN_QUESTIONS)]);
      if (line) work = Promise.race([work, line.reached.then(() => TASK_LINE)]);
      return call.timeoutMs === undefined ? work : withTimeout(work, call.timeoutMs, request);
    });
  } catch (error) {
    return { failure: failureOf(error, call, request.signal) };
  } finally {
    ctx.end();
  }
  if (value === TASK_LINE && line) {
    request.abort(new Error('became a task')); // the provider's signal: this run is over, the task's run starts anew
    return { startTask: line.log ?? answered(rounds?.rounds.answers ?? {}) };
  }
  if (value !== OPEN_QUESTIONS || !rounds) return { value };
  request.abort(new Error('input required')); // the provider's signal: this run is over
  // Sealing may fail (the key store unreachable): that is the platform's -32006, not the tool's outcome.
  return { inputRequired: await rounds.interim() };
}

const TASK_LINE = Symbol('task line');

/** `ctx.startTask()` of a run that may become a task; a 2025 run logs its answers (a 2026 run has them in rounds). */
function taskLine(modern: boolean) {
  let reach!: () => void;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  return {
    reached,
    log: modern ? undefined : ({} as Record<string, unknown>),
    start: (): Promise<void> => {
      reach();
      return new Promise(() => undefined);
    },
  };
}

const OPEN_QUESTIONS = Symbol('open questions');

/**
 * The answers a 2026-07-28 call starts with: those sealed in its `requestState` (checked: caller, request, expiry,
 * integrity) and this retry's `inputResponses`, taken only for the questions that state says were asked. A first call
 * carrying `inputResponses` without a state has asked nothing, so they are ignored: an "accepted" confirmation sent
 * before the question was ever asked must not stand in for the user's answer.
 */
async function openRounds(request: RequestContext, call: Invocation) {
  const params = request.message.params ?? {};
  const responses = params.inputResponses;
  if (responses !== undefined && (typeof responses !== 'object' || responses === null || Array.isArray(responses)))
    throw new InvalidParamsError('Invalid params: inputResponses must be an object keyed by the questions asked', {
      field: 'inputResponses',
      reason: 'type',
    });
  const binding: RequestStateBinding = {
    principal: callerSubject(request.principal, request.peer.transport),
    method: request.message.method,
    target: call.target,
    arguments: params.arguments ?? null,
  };
  const sealed =
    params.requestState === undefined
      ? { answers: {}, asked: [] as string[] }
      : await request.states.open(params.requestState, binding);
  const given = (responses ?? {}) as Record<string, unknown>;
  const answers = { ...sealed.answers };
  for (const key of sealed.asked) if (key in given) answers[key] = given[key];
  const rounds = new InputRounds(answers);
  return {
    rounds,
    /** The InputRequiredResult: the open questions, and every answer so far sealed for the retry. */
    interim: async (): Promise<Record<string, unknown>> => ({
      resultType: 'input_required',
      inputRequests: rounds.asked,
      requestState: await request.states.seal(binding, answered(answers), [
        ...new Set([...sealed.asked, ...Object.keys(rounds.asked)]),
      ]),
    }),
  };
}

/** Only answers that are objects are kept (what a client result is); anything else is asked again. */
const answered = (answers: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(answers).filter(([, v]) => typeof v === 'object' && v !== null && !Array.isArray(v)),
  );

/** The model-actionable text of a failure, or the protocol error to answer with (thrown). */
function failureOf(error: unknown, call: Invocation, signal: AbortSignal): string {
  // The platform's own refusals are the answer whatever the provider kind.
  if (error instanceof TimeoutError || error instanceof RateLimitedError) throw error;
  if (error instanceof McpError && error.data?.reason === 'limit_store_unavailable') throw error;
  if (signal.aborted) {
    // Aborted by the platform with a protocol error (shutdown): that is the answer. Otherwise the client cancelled.
    if (signal.reason instanceof McpError) throw signal.reason;
    throw new McpError(ErrorCode.ServerError, 'Request cancelled');
  }
  // A tool reports every actionable domain failure as a result; prompts and resources only ToolExecutionError
  // (their other typed errors, e.g. -32002 to a 2025 client, keep their codes).
  const text = call.kind === 'tool' || error instanceof ToolExecutionError ? toolErrorText(error) : undefined;
  if (text !== undefined) return call.kind === 'tool' ? text : text.slice(0, 1000);
  if (error instanceof McpError) throw error;
  const e = toJsonRpcError(error, `${call.kind} ${call.target}`);
  throw new McpError(e.code, e.message, e.data as Record<string, unknown> | undefined);
}

/**
 * Gives up on a call after `ms`: its signal is aborted (so the work really stops) and the client gets `-32004`;
 * whatever the handler produces later is dropped.
 */
function withTimeout<T>(work: Promise<T>, ms: number, request: RequestContext): Promise<T> {
  // One promise settled by whichever comes first (no race, finally or extra catch per call): a handler that settles
  // after the timeout settles nothing, and its rejection is handled here, so it is never an unhandled one.
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      const error = new TimeoutError(`Timeout: the tool did not finish within ${ms} ms`, { timeoutMs: ms });
      request.abort(error);
      reject(error);
    }, ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

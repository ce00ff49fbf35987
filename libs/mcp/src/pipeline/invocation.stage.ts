import { McpError, RateLimitedError, TimeoutError, ToolExecutionError } from '../errors/mcp.error';
import { toJsonRpcError, toolErrorText } from '../errors/error-mapper';
import { ErrorCode } from '../wire/json-rpc';
import { McpCallContext } from '../interfaces/call-context.interface';
import { createCallContext } from './call-context.factory';
import { McpCallLimits } from '../limits/call-limiter';
import { InvocationScope } from './invocation-scope';

/** The three kinds of provider call; they differ only in what a domain failure becomes. @internal */
export type InvocationKind = 'tool' | 'prompt' | 'resource';

/** One call of a provider method, as the handler of its kind describes it. @internal */
export interface Invocation {
  kind: InvocationKind;
  /** Tool name, prompt name or resource URI: what limits count, logs name and the context carries. */
  target: string;
  /** The provider method (already wrapped in Nest's pipeline at boot), given this call's context. */
  run(ctx: McpCallContext): unknown;
  /** A tool's own `rateLimit` (calls per minute, concurrent calls, per caller). */
  rateLimit?: McpCallLimits;
  /** Gives up after this many ms: the call's signal is aborted and the client gets `-32004`. */
  timeoutMs?: number;
}

/**
 * What a call produced: the provider's value, or a failure the model can act on (a tool answers it as `isError`,
 * a prompt or a resource as `-32602`). Protocol errors are thrown.
 * @internal
 */
export type InvocationOutcome = { value: unknown } | { failure: string };

/**
 * The one invocation stage every tool, prompt and resource call goes through, in both protocol eras: the call
 * context, the caller's concurrency and rate limits, the timeout, and one mapping of whatever the provider threw.
 * The handlers of each kind do only what differs: argument checks before, result normalisation after.
 * @internal
 */
export async function invoke(scope: InvocationScope, call: Invocation): Promise<InvocationOutcome> {
  const ctx = createCallContext(
    scope.session,
    scope.principal,
    scope.request,
    call.target,
    scope.sink,
    scope.signal,
    scope.options,
  );
  try {
    const value = await scope.limiter.run(scope.session, call.target, call.rateLimit, () => {
      // A provider that throws synchronously fails like one that rejects.
      const work = Promise.resolve().then(() => call.run(ctx));
      return call.timeoutMs === undefined ? work : withTimeout(work, call.timeoutMs, scope);
    });
    return { value };
  } catch (error) {
    return { failure: failureOf(error, call, scope.signal) };
  } finally {
    ctx.end();
  }
}

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
function withTimeout<T>(work: Promise<T>, ms: number, scope: InvocationScope): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new TimeoutError(`Timeout: the tool did not finish within ${ms} ms`, { timeoutMs: ms });
      scope.abort(error);
      reject(error);
    }, ms);
  });
  // A handler that rejects after the timeout must not become an unhandled rejection.
  work.catch(() => undefined);
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

import { callerTokenOf } from '../auth/caller-token';
import { currentCallScope } from '../pipeline/call-scope';
import { currentRequestId } from '../observability/log-context';
import { DownstreamCallInfo } from './credentials/downstream-credentials.interface';

/** The call one downstream request serves, as the client sees it. @internal */
export interface DownstreamCall extends DownstreamCallInfo {
  /** The caller's cancellation alone (without the deadline): tells a cancel from a timeout. */
  callSignal: AbortSignal | undefined;
  /** X-Request-Id to forward. */
  requestId: string | undefined;
}

/**
 * The deadline of one request: the call's own (its tool timeout), capped by the downstream's `timeoutMs`; outside a
 * call (boot, a timer), `timeoutMs` from now.
 * @internal
 */
export function requestDeadline(callDeadline: number | undefined, timeoutMs: number, now: number): number {
  const own = now + timeoutMs;
  return callDeadline === undefined ? own : Math.min(callDeadline, own);
}

/**
 * The call running now, found without the tool passing it (pipeline/call-scope.ts): its signal, its deadline, its
 * caller. The signal returned is aborted by the caller's cancellation or when the deadline passes.
 * @internal
 */
export function currentDownstreamCall(timeoutMs: number, now = Date.now()): DownstreamCall {
  const scope = currentCallScope();
  const deadline = requestDeadline(scope?.deadline, timeoutMs, now);
  // At the call's own deadline the platform aborts the call's signal and answers -32004 itself; a timer of ours
  // firing at the same moment would race it with a -32006. So a timer only when the downstream's bound is shorter.
  const ownBound = scope?.deadline === undefined || deadline < scope.deadline;
  const timer = ownBound ? AbortSignal.timeout(Math.max(1, deadline - now)) : undefined;
  const subject = scope?.principal?.subject;
  return {
    subject: subject ? subject : undefined,
    callerToken: callerTokenOf(scope?.principal),
    ...(scope?.taskId !== undefined ? { taskId: scope.taskId } : {}),
    signal: !scope ? timer! : timer ? AbortSignal.any([scope.signal, timer]) : scope.signal,
    callSignal: scope?.signal,
    deadline,
    requestId: scope?.requestId ?? currentRequestId(),
  };
}

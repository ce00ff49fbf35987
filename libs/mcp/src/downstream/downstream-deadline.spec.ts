import { bindCallerToken } from '../auth/caller-token';
import { principalFromClaims } from '../auth/mcp-principal';
import { enableCallScope, runInCallScope } from '../pipeline/call-scope';
import { currentDownstreamCall, requestDeadline } from './downstream-deadline';

// What a downstream client does when built at boot: every call then carries its scope.
enableCallScope();

describe('deadline arithmetic', () => {
  it('a request gets what remains of the call, capped by the downstream timeout', () => {
    expect(requestDeadline(1_000 + 300, 10_000, 1_000)).toBe(1_300);
    expect(requestDeadline(1_000 + 30_000, 10_000, 1_000)).toBe(11_000);
    expect(requestDeadline(undefined, 2_000, 1_000)).toBe(3_000);
  });

  it('outside a call: its own timeout, no caller', () => {
    const call = currentDownstreamCall(5_000, 1_000);
    expect(call).toMatchObject({ deadline: 6_000, subject: undefined, callerToken: undefined, callSignal: undefined });
    expect(call.signal.aborted).toBe(false);
  });

  it('inside a call: its deadline, cancellation, subject, token and request id', () => {
    const controller = new AbortController();
    const principal = principalFromClaims({ sub: 'alice' });
    bindCallerToken(principal, 'caller-token');
    const scope = { signal: controller.signal, deadline: 1_500, principal, requestId: 'r-1', target: 't' };
    const call = runInCallScope(
      () => scope,
      () => currentDownstreamCall(10_000, 1_000),
    );
    expect(call).toMatchObject({ deadline: 1_500, subject: 'alice', callerToken: 'caller-token', requestId: 'r-1' });
    expect(call).not.toHaveProperty('taskId');
    expect(call.signal.aborted).toBe(false);
    controller.abort();
    expect(call.signal.aborted).toBe(true);
    expect(call.callSignal?.aborted).toBe(true);
  });

  it("inside a task's run: the task id, which a token exchange refuses", () => {
    const scope = { signal: new AbortController().signal, deadline: 1_500, principal: undefined, requestId: 'r-2' };
    const call = runInCallScope(
      () => ({ ...scope, target: 't', taskId: 'task-7' }),
      () => currentDownstreamCall(10_000, 1_000),
    );
    expect(call).toMatchObject({ taskId: 'task-7', callerToken: undefined });
  });

  it('the signal is aborted when the deadline passes', async () => {
    const call = currentDownstreamCall(20);
    await new Promise((r) => setTimeout(r, 60));
    expect(call.signal.aborted).toBe(true);
  });
});

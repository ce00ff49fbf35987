import { NotFoundException } from '@nestjs/common';
import { resolveMcpOptions } from '../mcp-options.resolver';
import { McpSession } from '../sessions/mcp-session';
import { McpPeer } from '../context/mcp-peer';
import { ResourceNotFoundError, TimeoutError, ToolExecutionError } from '../errors/mcp.error';
import { ErrorCode } from '../wire/json-rpc';
import { McpCallContext } from '../context/call-context.interface';
import { Invocation, invoke } from './invocation.stage';
import { RequestContext } from './request-context';
import { RequestStateCodec } from './request-state.codec';
import { InMemoryKeyStore } from '../stores/in-memory-key.store';
import { currentCallScope, enableCallScope } from './call-scope';
import { CallQuestions } from './input-rounds';

const states = new RequestStateCodec(new InMemoryKeyStore());

function request(modern?: {
  capabilities: Record<string, unknown>;
  params?: Record<string, unknown>;
}): RequestContext & { controller: AbortController } {
  const controller = new AbortController();
  const peer = modern
    ? McpPeer.forRequest('http', '2026-07-28', undefined, modern.capabilities, undefined, undefined)
    : new McpSession('s1', 'http');
  if (!modern) peer.negotiate('2025-11-25', { name: 'c', version: '1' }, {});
  // The limiter's own behaviour has its suites; here it only runs the work.
  const limiter = { call: <T>(_c: unknown, _t: unknown, _o: unknown, work: () => Promise<T>) => work() };
  return {
    controller,
    requestId: 'r1',
    principal: undefined,
    abort: (reason) => controller.abort(reason),
    message: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', arguments: {}, ...modern?.params } },
    peer,
    sink: { send: () => true },
    signal: controller.signal,
    options: resolveMcpOptions({ name: 'svc', version: '1.0.0' }),
    admission: limiter,
    states,
  };
}

const call = (kind: Invocation['kind'], run: (ctx: McpCallContext) => unknown, timeoutMs?: number): Invocation => ({
  kind,
  target: 'x',
  method: (_args, ctx) => run(ctx),
  args: {},
  timeoutMs,
});

describe('the invocation stage', () => {
  it('gives the provider a context for this call and returns its value', async () => {
    const out = await invoke(
      request(),
      call('tool', (ctx) => `${ctx.target} ${ctx.requestId}`),
    );
    expect(out).toEqual({ value: 'x 1' });
  });

  it('turns a synchronous throw into the same outcome as a rejection', async () => {
    const out = await invoke(
      request(),
      call('tool', () => {
        throw new ToolExecutionError('closed; reopen first');
      }),
    );
    expect(out).toEqual({ failure: 'closed; reopen first' });
  });

  it('answers a domain failure as text for every kind, but keeps typed protocol errors of prompts and resources', async () => {
    const notFound = () => Promise.reject(new ResourceNotFoundError());
    expect(await invoke(request(), call('tool', notFound))).toEqual({ failure: 'Resource not found' });
    await expect(invoke(request(), call('resource', notFound))).rejects.toMatchObject({
      code: ErrorCode.ResourceNotFound,
    });
    expect(
      await invoke(
        request(),
        call('prompt', () => Promise.reject(new ToolExecutionError('no'))),
      ),
    ).toEqual({
      failure: 'no',
    });
    // A Nest HTTP exception from a tool is model-actionable; from a prompt it maps like any other error.
    expect(
      await invoke(
        request(),
        call('tool', () => Promise.reject(new NotFoundException('gone'))),
      ),
    ).toEqual({
      failure: 'gone',
    });
  });

  it('aborts the signal and answers -32004 when the timeout passes', async () => {
    const s = request();
    let seen: AbortSignal | undefined;
    const slow = (ctx: { signal: AbortSignal }) => {
      seen = ctx.signal;
      return new Promise(() => undefined);
    };
    await expect(invoke(s, call('tool', slow, 20))).rejects.toBeInstanceOf(TimeoutError);
    expect(seen?.aborted).toBe(true);
  });

  it('answers a cancelled call with a protocol error, never as a tool result', async () => {
    const s = request();
    const run = () => {
      s.controller.abort('client');
      return Promise.reject(new Error('AbortError'));
    };
    await expect(invoke(s, call('tool', run))).rejects.toMatchObject({ message: 'Request cancelled' });
  });

  it('never leaks an unknown error: it becomes a sanitised protocol error', async () => {
    const run = () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.7:5432 at /srv/app/db.js:12'));
    const error = (await invoke(request(), call('tool', run)).catch((e: Error) => e)) as Error & { code: number };
    expect(error.code).toBe(ErrorCode.InternalError);
    expect(error.message).not.toMatch(/10\.0\.0\.7|\/srv\/app/);
  });

  it("sets the call scope a downstream client reads: the task's id in a task's run only", async () => {
    enableCallScope();
    const scopeOf = async (r: RequestContext) => {
      const out = await invoke(
        r,
        call('tool', () => currentCallScope()),
      );
      return (out as { value: ReturnType<typeof currentCallScope> }).value;
    };
    expect(await scopeOf(request())).toMatchObject({ requestId: 'r1', target: 'x', taskId: undefined });
    const run = { ...request(), task: { id: 'task-1', questions: {} as CallQuestions } };
    expect(await scopeOf(run)).toMatchObject({ requestId: 'r1', target: 'x', taskId: 'task-1' });
  });
});

describe('the invocation stage, 2026-07-28 (multi round-trip requests)', () => {
  const both = { elicitation: {}, sampling: {} };
  const greet = async (ctx: McpCallContext) => {
    const name = await ctx.elicit({ message: 'Name?' }, { key: 'user_name' });
    return `Hello, ${(name.content as { name: string }).name}!`;
  };

  it('answers an open question with an InputRequiredResult, then runs again with the answer', async () => {
    const first = await invoke(request({ capabilities: both }), call('tool', greet));
    expect(first).toMatchObject({
      inputRequired: {
        resultType: 'input_required',
        inputRequests: { user_name: { method: 'elicitation/create', params: { message: 'Name?' } } },
      },
    });
    const retry = {
      requestState: (first as { inputRequired: { requestState: string } }).inputRequired.requestState,
      inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } },
    };
    expect(await invoke(request({ capabilities: both, params: retry }), call('tool', greet))).toEqual({
      value: 'Hello, Ada!',
    });
  });

  it('takes answers only to questions its requestState says were asked', async () => {
    const answer = { user_name: { action: 'accept', content: { name: 'Mallory' } } };
    // No state: nothing was asked, so the "answer" is ignored and the question asked.
    const unasked = await invoke(
      request({ capabilities: both, params: { inputResponses: answer } }),
      call('tool', greet),
    );
    expect(unasked).toMatchObject({ inputRequired: { inputRequests: { user_name: expect.any(Object) } } });
    // A state from a round that asked something else: an answer to a question not asked is ignored too.
    const other = async (ctx: McpCallContext) => {
      await ctx.elicit({ message: 'first?' }, { key: 'first' });
      return greet(ctx);
    };
    const round1 = (await invoke(request({ capabilities: both }), call('tool', other))) as {
      inputRequired: { requestState: string };
    };
    const early = {
      requestState: round1.inputRequired.requestState,
      inputResponses: { first: { action: 'accept' }, ...answer },
    };
    expect(await invoke(request({ capabilities: both, params: early }), call('tool', other))).toMatchObject({
      inputRequired: { inputRequests: { user_name: expect.any(Object) } },
    });
  });

  it('asks questions asked together in one round, and keeps earlier answers in the sealed state', async () => {
    const two = async (ctx: McpCallContext) => {
      const [a, b] = await Promise.all([ctx.elicit({ message: 'a' }), ctx.sample({ messages: [] })]);
      const c = await ctx.elicit({ message: 'c' });
      return [a, b, c].length;
    };
    const first = (await invoke(request({ capabilities: both }), call('tool', two))) as {
      inputRequired: { inputRequests: Record<string, unknown>; requestState: string };
    };
    expect(Object.keys(first.inputRequired.inputRequests)).toEqual(['elicitation_1', 'sampling_1']);
    const round2 = {
      requestState: first.inputRequired.requestState,
      inputResponses: { elicitation_1: { action: 'accept' }, sampling_1: { role: 'assistant' } },
    };
    const second = (await invoke(request({ capabilities: both, params: round2 }), call('tool', two))) as {
      inputRequired: { inputRequests: Record<string, unknown>; requestState: string };
    };
    expect(Object.keys(second.inputRequired.inputRequests)).toEqual(['elicitation_2']);
    // The third round sends only the last answer: the first two come back from the state.
    const round3 = {
      requestState: second.inputRequired.requestState,
      inputResponses: { elicitation_2: { action: 'decline' } },
    };
    expect(await invoke(request({ capabilities: both, params: round3 }), call('tool', two))).toEqual({ value: 3 });
  });

  it('refuses a tampered, foreign or mismatched requestState with -32602', async () => {
    const first = (await invoke(request({ capabilities: both }), call('tool', greet))) as {
      inputRequired: { requestState: string };
    };
    const state = first.inputRequired.requestState;
    const [payload, tag] = state.split('.');
    const forged = `${Buffer.from(Buffer.from(payload, 'base64url').toString().replace('"a":{}', '"a":{"user_name":{}}')).toString('base64url')}.${tag}`;
    for (const requestState of [forged, `${state}x`, 'nonsense', 42]) {
      await expect(
        invoke(request({ capabilities: both, params: { requestState } }), call('tool', greet)),
      ).rejects.toMatchObject({ code: ErrorCode.InvalidParams, data: { field: 'requestState' } });
    }
    // The same state on a call with other arguments is refused too.
    await expect(
      invoke(
        request({ capabilities: both, params: { requestState: state, arguments: { other: 1 } } }),
        call('tool', greet),
      ),
    ).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
  });

  it('answers -32021 naming the capability when the client did not declare it', async () => {
    await expect(
      invoke(
        request({ capabilities: { elicitation: {} } }),
        call('tool', (ctx) => ctx.sample({})),
      ),
    ).rejects.toMatchObject({
      code: ErrorCode.MissingRequiredClientCapability,
      data: { requiredCapabilities: { sampling: {} } },
    });
  });
});

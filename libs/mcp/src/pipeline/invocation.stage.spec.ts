import { NotFoundException } from '@nestjs/common';
import { resolveMcpOptions } from '../mcp-options.resolver';
import { McpSession } from '../sessions/mcp-session';
import { CallLimiter } from '../limits/call-limiter';
import { ResourceNotFoundError, TimeoutError, ToolExecutionError } from '../errors/mcp.error';
import { ErrorCode } from '../wire/json-rpc';
import { Invocation, invoke } from './invocation.stage';
import { InvocationScope } from './invocation-scope';

function scope(): InvocationScope & { controller: AbortController } {
  const controller = new AbortController();
  const session = new McpSession('s1', 'http');
  session.negotiate('2025-11-25', { name: 'c', version: '1' }, {});
  // The limiter's own behaviour has its suites; here it only runs the work.
  const limiter = { run: (_s: unknown, _t: unknown, _o: unknown, work: () => Promise<unknown>) => work() };
  return {
    controller,
    requestId: 'r1',
    principal: undefined,
    abort: (reason) => controller.abort(reason),
    request: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} },
    session,
    sink: { send: () => true },
    signal: controller.signal,
    options: resolveMcpOptions({ name: 'svc', version: '1.0.0' }),
    limiter: limiter as unknown as CallLimiter,
  };
}

const call = (kind: Invocation['kind'], run: Invocation['run'], timeoutMs?: number): Invocation => ({
  kind,
  target: 'x',
  run,
  timeoutMs,
});

describe('the invocation stage', () => {
  it('gives the provider a context for this call and returns its value', async () => {
    const out = await invoke(
      scope(),
      call('tool', (ctx) => `${ctx.target} ${ctx.requestId}`),
    );
    expect(out).toEqual({ value: 'x 1' });
  });

  it('turns a synchronous throw into the same outcome as a rejection', async () => {
    const out = await invoke(
      scope(),
      call('tool', () => {
        throw new ToolExecutionError('closed; reopen first');
      }),
    );
    expect(out).toEqual({ failure: 'closed; reopen first' });
  });

  it('answers a domain failure as text for every kind, but keeps typed protocol errors of prompts and resources', async () => {
    const notFound = () => Promise.reject(new ResourceNotFoundError());
    expect(await invoke(scope(), call('tool', notFound))).toEqual({ failure: 'Resource not found' });
    await expect(invoke(scope(), call('resource', notFound))).rejects.toMatchObject({
      code: ErrorCode.ResourceNotFound,
    });
    expect(await invoke(scope(), call('prompt', () => Promise.reject(new ToolExecutionError('no'))))).toEqual({
      failure: 'no',
    });
    // A Nest HTTP exception from a tool is model-actionable; from a prompt it maps like any other error.
    expect(await invoke(scope(), call('tool', () => Promise.reject(new NotFoundException('gone'))))).toEqual({
      failure: 'gone',
    });
  });

  it('aborts the signal and answers -32004 when the timeout passes', async () => {
    const s = scope();
    let seen: AbortSignal | undefined;
    const slow = (ctx: { signal: AbortSignal }) => {
      seen = ctx.signal;
      return new Promise(() => undefined);
    };
    await expect(invoke(s, call('tool', slow, 20))).rejects.toBeInstanceOf(TimeoutError);
    expect(seen?.aborted).toBe(true);
  });

  it('answers a cancelled call with a protocol error, never as a tool result', async () => {
    const s = scope();
    const run = () => {
      s.controller.abort('client');
      return Promise.reject(new Error('AbortError'));
    };
    await expect(invoke(s, call('tool', run))).rejects.toMatchObject({ message: 'Request cancelled' });
  });

  it('never leaks an unknown error: it becomes a sanitised protocol error', async () => {
    const run = () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.7:5432 at /srv/app/db.js:12'));
    const error = (await invoke(scope(), call('tool', run)).catch((e: Error) => e)) as Error & { code: number };
    expect(error.code).toBe(ErrorCode.InternalError);
    expect(error.message).not.toMatch(/10\.0\.0\.7|\/srv\/app/);
  });
});

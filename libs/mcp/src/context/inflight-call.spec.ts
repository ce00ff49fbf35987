import { McpError } from '../errors/mcp.error';
import { ErrorCode } from '../wire/json-rpc';
import { InflightCall } from './inflight-call';

describe('InflightCall', () => {
  const never = () => new Promise<string>(() => undefined);

  it('answers with the handler value, and a plain value without waiting for a promise', async () => {
    await expect(new InflightCall().answer(Promise.resolve('done'))).resolves.toBe('done');
    await expect(new InflightCall().answer('at once')).resolves.toBe('at once');
  });

  it('answers with the protocol error it is aborted with, while the handler still runs', async () => {
    const call = new InflightCall();
    const answer = call.answer(never());
    const error = new McpError(ErrorCode.UpstreamUnavailable, 'Unavailable: shutting down');
    call.abort(error);
    await expect(answer).rejects.toBe(error);
    expect(call.controller.signal.aborted).toBe(true);
    expect(call.controller.signal.reason).toBe(error);
  });

  it('aborts the signal but keeps waiting for the handler on any other reason (input required, a task)', async () => {
    const call = new InflightCall();
    let finish!: (v: string) => void;
    const answer = call.answer(new Promise<string>((resolve) => (finish = resolve)));
    call.abort(new Error('input required'));
    expect(call.controller.signal.aborted).toBe(true);
    finish('the handler ends its run');
    await expect(answer).resolves.toBe('the handler ends its run');
  });

  it('keeps the first reason: a later abort changes neither the signal nor the answer', async () => {
    const call = new InflightCall();
    const answer = call.answer(Promise.resolve('value'));
    call.abort(new Error('cancelled'));
    call.abort(new McpError(ErrorCode.UpstreamUnavailable, 'too late'));
    expect((call.controller.signal.reason as Error).message).toBe('cancelled');
    await expect(answer).resolves.toBe('value');
  });

  it('passes the handler rejection on', async () => {
    const boom = new Error('boom');
    await expect(new InflightCall().answer(Promise.reject(boom))).rejects.toBe(boom);
  });
});

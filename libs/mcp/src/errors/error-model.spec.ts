import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  NotFoundException,
  ServiceUnavailableException,
} from '@nestjs/common';
import { toJsonRpcError, toolErrorText } from './error-mapper';
import { httpStatusFor, modernHttpStatusFor } from './http-status';
import {
  ConflictError,
  RateLimitedError,
  ResourceNotFoundError,
  ServerError,
  TimeoutError,
  ToolExecutionError,
  UpstreamUnavailableError,
} from './mcp.error';

describe('the error model', () => {
  it('turns what the model can act on into isError text, and nothing else', () => {
    expect(toolErrorText(new ToolExecutionError('HD-7 is closed'))).toBe('HD-7 is closed');
    expect(toolErrorText(new ResourceNotFoundError('No issue AITECH-123'))).toBe('No issue AITECH-123');
    expect(toolErrorText(new ConflictError('Edited concurrently'))).toBe('Edited concurrently');
    expect(toolErrorText(new UpstreamUnavailableError('Jira is down'))).toBe('Jira is down');
    expect(toolErrorText(new BadRequestException('title too short'))).toBe('title too short');
    expect(toolErrorText(new NotFoundException('no such ticket'))).toBe('no such ticket');
    for (const e of [
      new RateLimitedError(5),
      new TimeoutError(),
      new ServerError(),
      new ForbiddenException(),
      new Error('x'),
    ]) {
      expect(toolErrorText(e)).toBeUndefined();
    }
  });

  it('maps typed errors, Nest exceptions and unknown errors to JSON-RPC errors without leaking', () => {
    expect(toJsonRpcError(new RateLimitedError(7), 't')).toEqual({
      code: -32003,
      message: 'Rate limited: retry later',
      data: { reason: 'rate_limited', retryAfter: 7 },
    });
    expect(toJsonRpcError(new TimeoutError(), 't').code).toBe(-32004);
    expect(toJsonRpcError(new ForbiddenException(), 't').code).toBe(-32001);
    expect(toJsonRpcError(new ConflictException(), 't').code).toBe(-32007);
    expect(toJsonRpcError(new ServiceUnavailableException(), 't').code).toBe(-32006);
    const leaky = new Error('password=hunter2 at /srv/app/db.ts:12');
    expect(toJsonRpcError(leaky, 't')).toEqual({ code: -32603, message: 'Internal error' });
  });

  it('maps codes to HTTP statuses per profile, never 404 on a request with a session', () => {
    expect(httpStatusFor(-32601, 'corporate', false)).toBe(404);
    expect(httpStatusFor(-32601, 'corporate', true)).toBe(400);
    expect(httpStatusFor(-32002, 'corporate', true)).toBe(400);
    expect(
      [-32602, -32603, -32003, -32004, -32005, -32006, -32007].map((c) => httpStatusFor(c, 'corporate', true)),
    ).toEqual([400, 500, 429, 504, 413, 503, 409]);
    expect([-32601, -32602, -32603, -32004, -32007].map((c) => httpStatusFor(c, 'spec', true))).toEqual([
      200, 200, 200, 200, 200,
    ]);
    expect([-32700, -32003, -32005, -32006].map((c) => httpStatusFor(c, 'spec', true))).toEqual([400, 429, 413, 503]);
    // 2026-07-28: the revision's 400/404 and the v2.0 table, whatever the 2025 profile.
    expect([-32601, -32602, -32020, -32021, -32022, -32004].map((c) => modernHttpStatusFor(c))).toEqual([
      404, 400, 400, 400, 400, 504,
    ]);
    expect(httpStatusFor(undefined, 'corporate', true)).toBe(200);
  });
});

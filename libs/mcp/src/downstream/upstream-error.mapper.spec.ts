import { toJsonRpcError, toolErrorText } from '../errors/error-mapper';
import { ErrorCode } from '../wire/json-rpc';
import { isDownstreamError } from './downstream.errors';
import { mapUpstreamStatus, noAnswer, retryAfterSeconds } from './upstream-error.mapper';

/** What a tool that lets the error escape answers: an isError text, or the thrown JSON-RPC error. */
function outcome(error: Error) {
  const text = toolErrorText(error);
  return text !== undefined ? { isError: text } : { thrown: toJsonRpcError(error, 'test') };
}

describe('the corporate table of upstream statuses (mapUpstreamStatus)', () => {
  const map = (status: number, text?: string, retryAfter?: number) =>
    mapUpstreamStatus('jira', { status, text, retryAfter });

  it('400 -> -32602, an isError result with the upstream reason', () => {
    const e = map(400, 'summary is required');
    expect(e).toMatchObject({ code: ErrorCode.InvalidParams, status: 400, downstream: 'jira' });
    expect(outcome(e)).toEqual({ isError: 'summary is required (HTTP 400)' });
  });

  it.each([401, 403])('%i -> -32000 with the status, an isError result', (status) => {
    const e = map(status);
    expect(e).toMatchObject({ code: ErrorCode.ServerError, status });
    expect(outcome(e)).toEqual({ isError: `The downstream service refused the credentials (HTTP ${status})` });
  });

  it('404 -> an isError result the model can act on', () => {
    expect(outcome(map(404, 'Issue AITECH-123 does not exist'))).toEqual({
      isError: 'Issue AITECH-123 does not exist (HTTP 404)',
    });
  });

  it('409 -> -32007, an isError result', () => {
    const e = map(409, 'version mismatch');
    expect(e.code).toBe(ErrorCode.Conflict);
    expect(outcome(e)).toEqual({ isError: 'version mismatch (HTTP 409)' });
  });

  it('429 -> a thrown -32003 carrying retryAfter', () => {
    expect(outcome(map(429, undefined, 7))).toEqual({
      thrown: {
        code: ErrorCode.RateLimited,
        message: 'Rate limited by the downstream service: retry later (HTTP 429)',
        data: { reason: 'rate_limited', retryAfter: 7 },
      },
    });
    expect((outcome(map(429)) as { thrown: { data: { retryAfter: number } } }).thrown.data.retryAfter).toBe(1);
  });

  it.each([502, 503, 504])('%i -> -32006 with the status, an isError result', (status) => {
    const e = map(status);
    expect(e).toMatchObject({ code: ErrorCode.UpstreamUnavailable, data: { status } });
    expect(outcome(e)).toEqual({ isError: `The downstream service is unavailable (HTTP ${status})` });
  });

  it('no answer -> -32006, an isError result', () => {
    expect(outcome(noAnswer('jira', 'connection failed (ECONNREFUSED)'))).toEqual({
      isError: 'The downstream service did not answer: connection failed (ECONNREFUSED)',
    });
  });

  it.each([500, 501, 507])('%i -> a thrown -32000, sanitised', (status) => {
    expect(outcome(map(status, 'boom\u001b[31m'))).toEqual({
      thrown: {
        code: ErrorCode.ServerError,
        message: `boom\ufffd[31m (HTTP ${status})`,
        data: { reason: 'upstream_error', status },
      },
    });
  });

  it('other 4xx -> an isError result (the request was wrong)', () => {
    expect(outcome(map(422, 'priority must be one of low, high'))).toEqual({
      isError: 'priority must be one of low, high (HTTP 422)',
    });
  });

  it('never names the downstream in what the client sees; the error keeps it for the tool', () => {
    for (const status of [400, 401, 404, 409, 429, 500, 503]) {
      const e = map(status);
      expect(isDownstreamError(e)).toBe(true);
      expect(JSON.stringify(outcome(e))).not.toContain('jira');
      expect(e.downstream).toBe('jira');
    }
  });
});

describe('retryAfterSeconds', () => {
  it('reads delay-seconds and HTTP dates, at least 1 second', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterSeconds('3', now)).toBe(3);
    expect(retryAfterSeconds('0', now)).toBe(1);
    expect(retryAfterSeconds('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5);
    expect(retryAfterSeconds('soon', now)).toBeUndefined();
    expect(retryAfterSeconds(undefined, now)).toBeUndefined();
  });
});

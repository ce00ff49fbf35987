import { ErrorCode } from '../wire/json-rpc';
import { INVALID_ARGUMENTS, errorClassOf, statusOfResult } from './call-outcome';

describe('call outcome', () => {
  it('names every corporate error code, and nothing else', () => {
    expect(errorClassOf(ErrorCode.RateLimited)).toBe('rate_limited');
    expect(errorClassOf(ErrorCode.Timeout)).toBe('timeout');
    expect(errorClassOf(ErrorCode.Forbidden)).toBe('forbidden');
    expect(errorClassOf(ErrorCode.InternalError)).toBe('internal_error');
    expect(errorClassOf(-31999)).toBe('error');
  });

  it('tells a tool failure from invalid arguments and success', () => {
    expect(statusOfResult({ content: [] })).toBe('ok');
    expect(statusOfResult({ content: [], isError: true })).toBe('tool_error');
    expect(statusOfResult({ content: [], isError: true, [INVALID_ARGUMENTS]: true })).toBe('invalid_arguments');
    expect(JSON.stringify({ isError: true, [INVALID_ARGUMENTS]: true })).toBe('{"isError":true}');
  });
});

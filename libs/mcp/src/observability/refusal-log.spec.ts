import { Logger } from '@nestjs/common';
import { resolveMcpOptions } from '../mcp-options.resolver';
import { McpRefusalLog } from './refusal-log';

describe('McpRefusalLog', () => {
  let warn: jest.SpyInstance;
  let log: McpRefusalLog;
  beforeEach(() => {
    jest.useFakeTimers();
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    log = new McpRefusalLog(
      resolveMcpOptions({ name: 'svc', version: '1.0.0', logging: { refusalIntervalMs: 10_000 } }),
    );
  });
  afterEach(() => {
    warn.mockRestore();
    jest.useRealTimers();
  });

  it('logs the first refusal per reason and source at once, and the repeats as one count per interval', () => {
    for (let i = 0; i < 1000; i++) log.note('auth:invalid_token', '10.0.0.1', { requestId: `r${i}` });
    log.note('auth:invalid_token', '10.0.0.2');
    log.note('rate_limited:rate', '10.0.0.1');
    expect(warn.mock.calls.map(([entry]) => entry)).toEqual([
      { msg: 'request refused', reason: 'auth:invalid_token', source: '10.0.0.1', requestId: 'r0' },
      { msg: 'request refused', reason: 'auth:invalid_token', source: '10.0.0.2' },
      { msg: 'request refused', reason: 'rate_limited:rate', source: '10.0.0.1' },
    ]);
    jest.advanceTimersByTime(10_000);
    expect(warn).toHaveBeenCalledTimes(4);
    expect(warn).toHaveBeenLastCalledWith({
      msg: 'requests refused',
      reason: 'auth:invalid_token',
      source: '10.0.0.1',
      count: 999,
      seconds: 10,
    });
    // A new interval starts with a line of its own again.
    log.note('auth:invalid_token', '10.0.0.1');
    expect(warn).toHaveBeenCalledTimes(5);
  });

  it('keeps a bounded number of sources per interval; the rest share one entry', () => {
    for (let i = 0; i < 1500; i++) log.note('auth:missing_token', `10.1.${Math.floor(i / 250)}.${i % 250}`);
    expect(warn).toHaveBeenCalledTimes(1000);
    log.flush();
    expect(warn).toHaveBeenLastCalledWith(
      expect.objectContaining({ source: '(other sources)', count: 500, msg: 'requests refused' }),
    );
  });
});

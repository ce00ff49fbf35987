import { Logger } from '@nestjs/common';
import { SHUTDOWN_MARGIN_MS, armShutdownDeadline } from './shutdown-deadline';

describe('armShutdownDeadline', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('exits 1 with an error line when the shutdown outlives the grace period and its margin', () => {
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const exit = jest.fn();
    armShutdownDeadline(2_000, exit);
    jest.advanceTimersByTime(2_000 + SHUTDOWN_MARGIN_MS - 1);
    expect(exit).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(exit).toHaveBeenCalledWith(1);
    expect(error).toHaveBeenCalledWith(expect.stringMatching(/^shutdown did not finish within 7000 ms/));
  });

  it('does nothing once cleared (the shutdown finished)', () => {
    const exit = jest.fn();
    clearTimeout(armShutdownDeadline(2_000, exit));
    jest.advanceTimersByTime(60_000);
    expect(exit).not.toHaveBeenCalled();
  });
});

import { documentsRetry, documentsTimeout } from './documented-terms';

describe('what a description or README documents', () => {
  it.each([
    'Timeout: 60 s.',
    'The call times out after 10 s.',
    'It timed out? Ask again.',
    'A time-out of 30 seconds applies.',
    'Each call has a time out of 5 s.',
    'Timeouts are reported as errors.',
    'There is a time limit of 2 minutes.',
    'Time-limited to 30 s per call.',
    'The export finishes within 30 seconds or is cancelled.',
    'Answers within 500 ms.',
    'Takes at most 10 s.',
    'Runs no longer than 2 min.',
    'Gives up after 45 s.',
    'The job is cancelled after 1.5 h.',
    'Aborts after 20 seconds.',
    'A deadline of 10 s applies to each call.',
  ])('reads a timeout in %j', (text) => {
    expect(documentsTimeout(text)).toBe(true);
  });

  it.each([
    'Restarts a service on its host.',
    'Retry: safe after 30 s.',
    'Returns the last 10 tickets.',
    'Sometimes a ticket takes time to appear.',
    'Outlines the time of each step.',
    'Stops the service.',
  ])('reads no timeout in %j', (text) => {
    expect(documentsTimeout(text)).toBe(false);
  });

  it('reads retry advice however it is worded', () => {
    for (const text of ['Retry: safe.', 'Retries are safe.', 'It can be retried.', 'Retriable.', 'Safe to re-try.'])
      expect([text, documentsRetry(text)]).toEqual([text, true]);
    expect(documentsRetry('Returns the status.')).toBe(false);
  });
});

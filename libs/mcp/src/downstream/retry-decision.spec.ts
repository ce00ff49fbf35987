import { isRetrySafe, retryDelay } from './retry-decision';

const retry = { attempts: 2, initialDelayMs: 100, maxDelayMs: 2000, maxRetryAfterSeconds: 2 };
const now = 1_000_000;
const far = now + 60_000;
const end = (status: number | undefined, retryAfter?: number, stopped = false) => ({ status, retryAfter, stopped });

describe('retry policy', () => {
  it('safe: idempotent methods, or any method with an idempotency key', () => {
    for (const m of ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'get']) expect(isRetrySafe(m, undefined)).toBe(true);
    for (const m of ['POST', 'PATCH']) expect(isRetrySafe(m, undefined)).toBe(false);
    expect(isRetrySafe('POST', 'k-1')).toBe(true);
    expect(isRetrySafe('POST', '')).toBe(false);
  });

  it('retries no answer and 502/503/504 with exponential backoff and full jitter', () => {
    expect(retryDelay(end(undefined), 0, true, retry, far, now, () => 1)).toBe(100);
    expect(retryDelay(end(503), 1, true, retry, far, now, () => 1)).toBe(200);
    expect(retryDelay(end(502), 1, true, retry, far, now, () => 0.5)).toBe(100);
    expect(retryDelay(end(504), 0, true, retry, far, now, () => 0)).toBe(0);
    expect(retryDelay(end(503), 1, true, { ...retry, maxDelayMs: 150 }, far, now, () => 1)).toBe(150);
  });

  it('never retries an unsafe request, other statuses, a stopped call, or past the attempts', () => {
    expect(retryDelay(end(503), 0, false, retry, far, now)).toBeUndefined();
    for (const status of [400, 401, 404, 409, 500])
      expect(retryDelay(end(status), 0, true, retry, far, now)).toBeUndefined();
    expect(retryDelay(end(undefined, undefined, true), 0, true, retry, far, now)).toBeUndefined();
    expect(retryDelay(end(503), 2, true, retry, far, now)).toBeUndefined();
    expect(retryDelay(end(503), 0, true, { ...retry, attempts: 0 }, far, now)).toBeUndefined();
  });

  it('retries a 429 after its Retry-After only when it is short', () => {
    expect(retryDelay(end(429, 2), 0, true, retry, far, now)).toBe(2000);
    expect(retryDelay(end(429), 0, true, retry, far, now)).toBe(1000);
    expect(retryDelay(end(429, 3), 0, true, retry, far, now)).toBeUndefined();
  });

  it('never past the deadline: the wait and a last attempt must fit', () => {
    expect(retryDelay(end(429, 2), 0, true, retry, now + 2049, now)).toBeUndefined();
    expect(retryDelay(end(429, 2), 0, true, retry, now + 2050, now)).toBe(2000);
    expect(retryDelay(end(503), 0, true, retry, now + 100, now, () => 1)).toBeUndefined();
  });
});

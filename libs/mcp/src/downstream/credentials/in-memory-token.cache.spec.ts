import { DownstreamCredentialsError } from './downstream-credentials.error';
import { InMemoryTokenCache } from './in-memory-token.cache';
import { CachedToken, TokenWait } from './token.cache';

const wait = (ms = 5000): TokenWait => ({ deadline: Date.now() + ms, signal: new AbortController().signal });
const token = (value: string, lifeMs = 60_000): CachedToken => ({ value, usableUntil: Date.now() + lifeMs });

describe('InMemoryTokenCache', () => {
  afterEach(() => jest.useRealTimers());

  it('50 concurrent gets of one key fetch once; another key fetches its own', async () => {
    const cache = new InMemoryTokenCache('jira');
    const fetch = jest.fn(() => new Promise<CachedToken>((ok) => setTimeout(() => ok(token('t1')), 20)));
    const values = await Promise.all(Array.from({ length: 50 }, () => cache.get('a', fetch, wait())));
    expect(new Set(values)).toEqual(new Set(['t1']));
    expect(fetch).toHaveBeenCalledTimes(1);
    await cache.get('b', () => Promise.resolve(token('t2')), wait());
    expect(cache.size).toBe(2);
  });

  it('reuses a token until its usableUntil, then fetches again (mocked time)', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const cache = new InMemoryTokenCache('jira');
    let n = 0;
    const fetch = jest.fn(() => Promise.resolve(token(`t${++n}`, 10_000)));
    expect(await cache.get('a', fetch, wait())).toBe('t1');
    jest.setSystemTime(1_000_000 + 9_999);
    expect(await cache.get('a', fetch, wait())).toBe('t1');
    jest.setSystemTime(1_000_000 + 10_000);
    expect(await cache.get('a', fetch, wait())).toBe('t2');
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('does not remember a failure: every waiter gets it, the next call asks again', async () => {
    const cache = new InMemoryTokenCache('jira');
    const fetch = jest.fn().mockRejectedValueOnce(new Error('down')).mockResolvedValueOnce(token('t'));
    const failures = await Promise.allSettled([cache.get('a', fetch, wait()), cache.get('a', fetch, wait())]);
    expect(failures.map((f) => f.status)).toEqual(['rejected', 'rejected']);
    expect(await cache.get('a', fetch, wait())).toBe('t');
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('a caller past its deadline gets issuer_unavailable; the fetch goes on for a caller with time left', async () => {
    const cache = new InMemoryTokenCache('jira');
    let release!: (t: CachedToken) => void;
    const fetch = jest.fn(() => new Promise<CachedToken>((ok) => (release = ok)));
    const hurried = cache.get('a', fetch, wait(20));
    const patient = cache.get('a', fetch, wait(5000));
    const e = await hurried.catch((x: unknown) => x);
    expect(e).toBeInstanceOf(DownstreamCredentialsError);
    expect(e).toMatchObject({ reason: 'issuer_unavailable', code: -32006 });
    release(token('late'));
    expect(await patient).toBe('late');
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('an aborted call stops waiting at once', async () => {
    const cache = new InMemoryTokenCache('jira');
    const abort = new AbortController();
    const pending = cache.get('a', () => new Promise<CachedToken>(() => undefined), {
      deadline: Date.now() + 60_000,
      signal: abort.signal,
    });
    abort.abort();
    await expect(pending).rejects.toMatchObject({ reason: 'issuer_unavailable' });
  });

  it('is bounded: beyond maxEntries the expired go first, then the oldest stored', async () => {
    jest.useFakeTimers({ now: 5_000_000 });
    const cache = new InMemoryTokenCache('jira', 3);
    await cache.get('short', () => Promise.resolve(token('s', 1_000)), wait());
    await cache.get('b', () => Promise.resolve(token('b')), wait());
    await cache.get('c', () => Promise.resolve(token('c')), wait());
    jest.setSystemTime(5_000_000 + 2_000);
    await cache.get('d', () => Promise.resolve(token('d')), wait());
    expect(cache.size).toBe(3);
    await cache.get('e', () => Promise.resolve(token('e')), wait());
    expect(cache.size).toBe(3);
    // 'b' was the oldest still valid: gone; 'c' is still served from the cache.
    const refetch = jest.fn(() => Promise.resolve(token('b2')));
    expect(await cache.get('b', refetch, wait())).toBe('b2');
    expect(refetch).toHaveBeenCalledTimes(1);
  });

  it('does not keep a token that is already unusable (no expires_in), and delete() forgets one', async () => {
    const cache = new InMemoryTokenCache('jira');
    await cache.get('a', () => Promise.resolve({ value: 'x', usableUntil: Date.now() }), wait());
    expect(cache.size).toBe(0);
    await cache.get('b', () => Promise.resolve(token('y')), wait());
    await cache.delete('b');
    expect(cache.size).toBe(0);
  });
});

import { McpPrincipal } from './mcp-principal';
import { VerdictCache } from './verdict-cache';

const principal = (sub: string, expSeconds = Date.now() / 1000 + 3600) =>
  ({ subject: sub, scopes: [], claims: { sub, exp: expSeconds } }) as unknown as McpPrincipal;
const tail = 'S'.repeat(40); // a shared signature-like end
const tokenA = `header.payload-of-alice.${tail}`;
const tokenB = `header.payload-of-mallory.${tail}`;

describe('VerdictCache', () => {
  it('finds a verified token by its exact string, also when it arrives as a new string', () => {
    const cache = new VerdictCache(60_000);
    const alice = principal('alice');
    cache.set(tokenA, alice);
    expect(cache.get(`${tokenA}`.split('').join(''))).toBe(alice);
  });

  it('never gives a verdict to another token that ends alike, and lets the later verified one replace it', () => {
    const cache = new VerdictCache(60_000);
    const alice = principal('alice');
    cache.set(tokenA, alice);
    expect(cache.get(tokenB)).toBeUndefined();
    const mallory = principal('mallory');
    cache.set(tokenB, mallory);
    expect(cache.get(tokenB)).toBe(mallory);
    expect(cache.get(tokenA)).toBeUndefined();
  });

  it('keeps short tokens whole', () => {
    const cache = new VerdictCache(60_000);
    const p = principal('short');
    cache.set('abc', p);
    expect(cache.get('abc')).toBe(p);
    expect(cache.get('abcd')).toBeUndefined();
  });

  it('forgets a verdict when the token expires or the TTL passes, whichever is first', () => {
    jest.useFakeTimers({ now: 1_000_000 });
    try {
      const cache = new VerdictCache(10_000);
      cache.set(tokenA, principal('alice', 1_000_000 / 1000 + 5)); // expires in 5 s
      cache.set(`x.${tail}Z`, principal('bob')); // an hour left: the TTL (10 s) decides
      jest.advanceTimersByTime(5_000);
      expect(cache.get(tokenA)).toBeUndefined();
      expect(cache.get(`x.${tail}Z`)).toBeDefined();
      jest.advanceTimersByTime(5_000);
      expect(cache.get(`x.${tail}Z`)).toBeUndefined();
    } finally {
      jest.useRealTimers();
    }
  });

  it('does not keep a token that has already expired', () => {
    const cache = new VerdictCache(60_000);
    cache.set(tokenA, principal('alice', Date.now() / 1000 - 1));
    expect(cache.get(tokenA)).toBeUndefined();
  });

  it('is bounded: the oldest entry goes first', () => {
    const cache = new VerdictCache(60_000, 2);
    const token = (i: number) => `t.${i}.${'x'.repeat(40)}${i}`;
    for (const i of [1, 2, 3]) cache.set(token(i), principal(`u${i}`));
    expect(cache.get(token(1))).toBeUndefined();
    expect(cache.get(token(2))).toBeDefined();
    expect(cache.get(token(3))).toBeDefined();
  });
});

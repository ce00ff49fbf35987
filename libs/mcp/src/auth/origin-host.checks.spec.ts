import type { IncomingMessage } from 'node:http';
import { hostMatcher, originHostRefusal, originMatcher } from './origin-host.checks';

const requestOf = (headers: Record<string, string>, url = '/mcp') => ({ headers, url }) as unknown as IncomingMessage;

describe('Origin and Host allow-lists', () => {
  it('matches origins exactly or by any-port pattern', () => {
    const ok = originMatcher(['http://localhost:*', 'https://app.example.com']);
    expect(ok('http://localhost:5173')).toBe(true);
    expect(ok('HTTP://LOCALHOST:80')).toBe(true);
    expect(ok('https://app.example.com')).toBe(true);
    expect(ok('http://localhost.evil.com:80')).toBe(false);
    expect(ok('http://localhost:80@evil.com')).toBe(false);
    expect(ok('https://app.example.com.evil.com')).toBe(false);
    expect(ok('null')).toBe(false);
  });

  it('matches Host headers by name, with or without a port', () => {
    const ok = hostMatcher(['localhost', '127.0.0.1', '[::1]']);
    expect(ok('localhost:3000')).toBe(true);
    expect(ok('127.0.0.1')).toBe(true);
    expect(ok('[::1]:3000')).toBe(true);
    expect(ok('evil.example.com')).toBe(false);
    expect(ok('localhost.evil.com:3000')).toBe(false);
  });

  it('refuses a foreign Origin with 403 before it looks at the Host, and a malformed Host with 400', () => {
    const origins = originMatcher(['http://localhost:*']);
    const hosts = hostMatcher(['localhost']);
    const refusal = (headers: Record<string, string>) => originHostRefusal(requestOf(headers), origins, hosts);
    expect(refusal({ host: 'localhost:3000', origin: 'http://localhost:5173' })).toBeUndefined();
    expect(refusal({})).toBeUndefined();
    expect(refusal({ host: 'evil.example.com', origin: 'https://evil.example.com' })).toEqual({
      status: 403,
      message: 'Forbidden: Origin not allowed',
    });
    expect(refusal({ host: 'evil.example.com' })).toEqual({ status: 403, message: 'Forbidden: Host not allowed' });
    expect(refusal({ host: 'localhost:3000@evil.example.com' })?.status).toBe(400);
  });
});

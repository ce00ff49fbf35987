import { accepts, hostMatcher, originMatcher } from './http-checks';

describe('HTTP checks', () => {
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

  it('reads Accept lists with parameters and wildcards', () => {
    expect(accepts('application/json, text/event-stream', 'text/event-stream')).toBe(true);
    expect(accepts('application/json;q=0.9', 'application/json')).toBe(true);
    expect(accepts('*/*', 'text/event-stream')).toBe(true);
    expect(accepts('application/json', 'text/event-stream')).toBe(false);
    expect(accepts(undefined, 'application/json')).toBe(false);
  });
});

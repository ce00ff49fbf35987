import { cspSourceCovers, parseCspSource } from './csp-source.matcher';

const covers = (source: string, origin: string) => cspSourceCovers(parseCspSource(source)!, origin);

describe('CSP source expressions of a view', () => {
  it('parses origins, wildcards and schemes; refuses what a policy could not hold', () => {
    expect(parseCspSource('https://*.Example.com:*')).toEqual({ scheme: 'https', host: '*.example.com', port: '*' });
    expect(parseCspSource('https:')).toEqual({ scheme: 'https' });
    expect(parseCspSource('api.example.com/v1/')).toEqual({ host: 'api.example.com' });
    for (const bad of ['', 'https://', 'https://a b', 'https://a.*.com', 'https://a.com;x', "'self'", 42, null])
      expect(parseCspSource(bad)).toBeUndefined();
  });

  it('matches an exact origin, with the default or the declared port', () => {
    expect(covers('https://api.example.com', 'https://api.example.com')).toBe(true);
    expect(covers('https://api.example.com', 'https://api.example.com:8443')).toBe(false);
    expect(covers('https://api.example.com:8443', 'https://api.example.com:8443')).toBe(true);
    expect(covers('https://api.example.com:443', 'https://api.example.com')).toBe(true);
    expect(covers('https://api.example.com:*', 'https://api.example.com:9000')).toBe(true);
    expect(covers('https://api.example.com', 'https://evil.example.com')).toBe(false);
  });

  it('matches subdomains for *.host, never the host itself', () => {
    expect(covers('https://*.example.com', 'https://cdn.example.com')).toBe(true);
    expect(covers('https://*.example.com', 'https://a.b.example.com')).toBe(true);
    expect(covers('https://*.example.com', 'https://example.com')).toBe(false);
    expect(covers('https://*.example.com', 'https://badexample.com')).toBe(false);
    expect(covers('*', 'https://anything.example')).toBe(true);
  });

  it('upgrades schemes as a browser does: http allows https, wss is fetched as https', () => {
    expect(covers('http://a.example', 'https://a.example')).toBe(true);
    expect(covers('https://a.example', 'http://a.example')).toBe(false);
    expect(covers('wss://rt.example', 'wss://rt.example')).toBe(true);
    expect(covers('https://rt.example', 'wss://rt.example')).toBe(true);
    expect(covers('wss://rt.example', 'ws://rt.example')).toBe(false);
    expect(covers('https:', 'https://any.example')).toBe(true);
    expect(covers('a.example', 'https://a.example')).toBe(true);
  });
});

import { resolveDownstreamOptions } from './downstream-options.resolver';
import { DOWNSTREAM_DEFAULTS } from './downstream.constants';

describe('resolveDownstreamOptions', () => {
  it('applies the documented defaults', () => {
    const r = resolveDownstreamOptions({ name: 'jira', baseUrl: 'https://jira.example.com/rest' });
    expect(r.baseUrl.href).toBe('https://jira.example.com/rest/');
    expect(r).toMatchObject({
      timeoutMs: DOWNSTREAM_DEFAULTS.timeoutMs,
      maxResponseBytes: DOWNSTREAM_DEFAULTS.maxResponseBytes,
      maxConcurrent: DOWNSTREAM_DEFAULTS.maxConcurrent,
      retry: DOWNSTREAM_DEFAULTS.retry,
      breaker: DOWNSTREAM_DEFAULTS.breaker,
    });
    const off = resolveDownstreamOptions({ name: 'x', baseUrl: 'http://127.0.0.1:9/', retry: false, breaker: false });
    expect(off.retry.attempts).toBe(0);
    expect(off.breaker).toBeUndefined();
  });

  it('accepts http only on loopback', () => {
    for (const baseUrl of ['http://localhost:8080/', 'http://127.0.0.1/', 'http://[::1]:3000/'])
      expect(() => resolveDownstreamOptions({ name: 'a', baseUrl })).not.toThrow();
    expect(() => resolveDownstreamOptions({ name: 'a', baseUrl: 'http://jira.example.com/' })).toThrow(
      /baseUrl must use https/,
    );
  });

  it('lists every problem at once, each naming the option', () => {
    expect(() =>
      resolveDownstreamOptions({
        name: '9 bad',
        baseUrl: 'https://u:p@x.example/?a=1',
        timeoutMs: -1,
        maxResponseBytes: 1.5,
        retry: { attempts: 99 },
        breaker: { halfOpenAfterMs: 0 },
        credentials: { type: 'static', header: 'bad header', value: '' },
      }),
    ).toThrow(
      /name must be.*user info.*query.*timeoutMs must be.*maxResponseBytes must be.*retry.attempts must be.*breaker.halfOpenAfterMs must be.*credentials.header.*credentials.value/,
    );
    expect(() => resolveDownstreamOptions({ name: 'a', baseUrl: 'not a url' })).toThrow(/absolute URL/);
  });

  it('readiness: off by default; true, or a health path on the baseUrl host, resolved once', () => {
    const base = { name: 'jira', baseUrl: 'https://jira.example.com/rest/api/2/' };
    expect(resolveDownstreamOptions(base).readiness).toBeUndefined();
    expect(resolveDownstreamOptions({ ...base, readiness: false }).readiness).toBeUndefined();
    expect(resolveDownstreamOptions({ ...base, readiness: true }).readiness).toEqual({ health: undefined });
    expect(resolveDownstreamOptions({ ...base, readiness: { path: 'health' } }).readiness?.health?.href).toBe(
      'https://jira.example.com/rest/api/2/health',
    );
    expect(resolveDownstreamOptions({ ...base, readiness: { path: '/status' } }).readiness?.health?.href).toBe(
      'https://jira.example.com/status',
    );
    for (const path of ['https://other.example.com/health', '//other.example.com/h', 'health?deep=1', ''])
      expect(() => resolveDownstreamOptions({ ...base, readiness: { path } })).toThrow(/readiness.path must be/);
    expect(() => resolveDownstreamOptions({ ...base, readiness: 'yes' as never })).toThrow(/readiness must be/);
    expect(() => resolveDownstreamOptions({ ...base, name: `a${'b'.repeat(29)}`, readiness: true })).toThrow(
      /at most 29 characters/,
    );
  });
});

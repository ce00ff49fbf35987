import type { ExecutionContext } from '@nestjs/common';
import { resolveMcpOptions } from '../mcp-options.resolver';
import { McpOriginGuard } from './origin.guard';
import { McpOriginRefusal } from './origin-refusal.error';

/** An HTTP execution context over a request with `headers` and a response that records its headers. */
function http(headers: Record<string, string>) {
  const set: Record<string, string> = {};
  const req = { headers, url: '/mcp', method: 'POST' };
  const res = { setHeader: (k: string, v: string) => void (set[k] = v) };
  const context = {
    switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }),
  } as unknown as ExecutionContext;
  return { context, set };
}

describe('McpOriginGuard', () => {
  const guard = new McpOriginGuard(
    resolveMcpOptions({ name: 'x', allowedOrigins: ['https://app.example.com'], allowedHosts: ['localhost'] }),
  );

  it('lets an allowed Origin through and echoes it in the CORS headers, never *', () => {
    const { context, set } = http({ host: 'localhost:3000', origin: 'https://app.example.com' });
    expect(guard.canActivate(context)).toBe(true);
    expect(set['Access-Control-Allow-Origin']).toBe('https://app.example.com');
    expect(set.Vary).toBe('Origin');
  });

  it('lets a request without Origin through without CORS headers', () => {
    const { context, set } = http({ host: 'localhost' });
    expect(guard.canActivate(context)).toBe(true);
    expect(set).toEqual({});
  });

  it('refuses a foreign Origin (403) and a foreign or malformed Host (403, 400)', () => {
    const refusal = (headers: Record<string, string>) => {
      try {
        guard.canActivate(http(headers).context);
      } catch (error) {
        return (error as McpOriginRefusal).refusal;
      }
      return undefined;
    };
    expect(refusal({ host: 'localhost', origin: 'https://evil.example' })).toEqual({
      status: 403,
      message: 'Forbidden: Origin not allowed',
    });
    expect(refusal({ host: 'evil.example' })?.status).toBe(403);
    expect(refusal({ host: 'localhost@evil.example' })?.status).toBe(400);
  });
  it('judges a Host once and gives the same verdict every time after, refusals included', () => {
    const own = new McpOriginGuard(resolveMcpOptions({ name: 'x', allowedHosts: ['localhost'] }));
    const request = (host: string, url = '/mcp') => ({ headers: { host }, url, method: 'POST' }) as never;
    for (let i = 0; i < 3; i++) {
      expect(own.refusalOf(request('localhost:3000'))).toBeUndefined();
      expect(own.refusalOf(request('evil.example.com'))).toEqual({
        status: 403,
        message: 'Forbidden: Host not allowed',
      });
      expect(own.refusalOf(request('bad host'))).toMatchObject({ status: 400 });
    }
    // An absolute-form target is judged with its own authority, not from what its Host was judged alone.
    expect(own.refusalOf(request('localhost', 'http://evil.example.com/mcp'))).toMatchObject({ status: 403 });
    // Past its bound the cache starts again; a verdict stays the same.
    for (let i = 0; i < 300; i++) own.refusalOf(request(`h${i}.example.com`));
    expect(own.refusalOf(request('localhost'))).toBeUndefined();
    expect(own.refusalOf(request('evil.example.com'))).toMatchObject({ status: 403 });
  });
});

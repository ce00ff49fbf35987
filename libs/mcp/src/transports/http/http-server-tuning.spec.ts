import { HttpAdapterHost } from '@nestjs/core';
import { HttpServerTuning } from './http-server-tuning';
import { resolveMcpOptions } from '../../mcp-options.resolver';

describe('HttpServerTuning', () => {
  it("sets Node's header, request and keep-alive timeouts from the limits", () => {
    const prependListener = jest.fn();
    const server = { keepAliveTimeout: 5_000, headersTimeout: 60_000, requestTimeout: 300_000, prependListener };
    const host = { httpAdapter: { getHttpServer: () => server } } as unknown as HttpAdapterHost;
    new HttpServerTuning(host, resolveMcpOptions({ name: 'svc', version: '1.0.0' })).onApplicationBootstrap();
    // The documented 20 s is the real headers timeout (not raised to the keep-alive timeout), checked every second.
    expect(server).toEqual({
      keepAliveTimeout: 65_000,
      headersTimeout: 20_000,
      requestTimeout: 60_000,
      connectionsCheckingInterval: 1_000,
      prependListener,
    });
    expect(prependListener).toHaveBeenCalledWith('connection', expect.any(Function));
    const tight = { keepAliveTimeout: 0, headersTimeout: 0, requestTimeout: 0, prependListener };
    const options = resolveMcpOptions({
      name: 'svc',
      version: '1.0.0',
      limits: { keepAliveTimeoutMs: 5_000, headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 },
    });
    new HttpServerTuning(
      { httpAdapter: { getHttpServer: () => tight } } as unknown as HttpAdapterHost,
      options,
    ).onApplicationBootstrap();
    expect(tight).toMatchObject({ keepAliveTimeout: 5_000, headersTimeout: 10_000, requestTimeout: 30_000 });
  });

  it('does nothing without an HTTP server (stdio)', () => {
    expect(() =>
      new HttpServerTuning(
        {} as HttpAdapterHost,
        resolveMcpOptions({ name: 'svc', version: '1.0.0' }),
      ).onApplicationBootstrap(),
    ).not.toThrow();
  });
});

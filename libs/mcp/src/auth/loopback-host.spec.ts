import { isLoopbackHost, unauthenticatedHostError, unauthenticatedHostErrorOfEnv } from './loopback-host';

describe('the loopback rule (what a server without real authentication may listen on)', () => {
  it('takes localhost, 127.x.x.x and ::1 as loopback, and nothing else', () => {
    for (const host of ['127.0.0.1', 'localhost', 'LOCALHOST', '::1', '[::1]', '127.0.0.2'])
      expect({ host, loopback: isLoopbackHost(host) }).toEqual({ host, loopback: true });
    for (const host of ['0.0.0.0', '::', '[::]', '10.0.0.5', '192.168.1.2', 'my-laptop', '127.0.0.1.evil.example'])
      expect({ host, loopback: isLoopbackHost(host) }).toEqual({ host, loopback: false });
  });

  it('refuses a non-loopback host in one line that says what to do; none or a loopback one goes on', () => {
    expect(unauthenticatedHostError(undefined)).toBeUndefined();
    expect(unauthenticatedHostError('127.0.0.1')).toBeUndefined();
    const error = unauthenticatedHostError('0.0.0.0');
    expect(error?.message).toMatch(
      /^McpModule auth: authentication is disabled and HOST=0\.0\.0\.0 is not loopback; set HOST=127\.0\.0\.1/,
    );
    expect(error?.message).not.toContain('\n');
  });

  it('judges the environment alone for a start that refuses before the boot: development or test only', () => {
    const env = { MCP_AUTH_DISABLED: 'true', HOST: '0.0.0.0' };
    expect(unauthenticatedHostErrorOfEnv({ ...env, NODE_ENV: 'development' })).toBeInstanceOf(Error);
    expect(unauthenticatedHostErrorOfEnv({ ...env, NODE_ENV: 'test' })).toBeInstanceOf(Error);
    // Production refuses a disabled authentication whatever the host, with its own message (createAuthConfig).
    expect(unauthenticatedHostErrorOfEnv({ ...env, NODE_ENV: 'production' })).toBeUndefined();
    expect(unauthenticatedHostErrorOfEnv({ NODE_ENV: 'development', HOST: '0.0.0.0' })).toBeUndefined();
    expect(unauthenticatedHostErrorOfEnv({ NODE_ENV: 'development', MCP_AUTH_DISABLED: 'true' })).toBeUndefined();
  });
});

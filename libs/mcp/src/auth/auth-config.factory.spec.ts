import { createAuthConfig } from './auth-config.factory';
import { resolveMcpOptions } from '../mcp-options.resolver';

describe('createAuthConfig', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });
  const configured = { jwksUri: 'https://idp.example/jwks.json', issuer: 'https://idp.example', audience: 'mcp:svc' };

  it('takes issuer, JWKS and audience from options or the environment', async () => {
    expect(await createAuthConfig(configured, 'svc')).toMatchObject({
      mode: 'jwt',
      ...configured,
      algorithms: ['RS256', 'ES256'],
      clockSkewSec: 30,
      jwksCacheTtlMs: 600_000,
      jwksRefetchIntervalMs: 10_000,
    });
    Object.assign(process.env, {
      MCP_JWKS_URI: 'https://e/jwks',
      MCP_JWT_ISSUER: 'https://e',
      MCP_JWT_AUDIENCE: 'aud',
      MCP_JWT_ALGORITHMS: 'ES256',
    });
    expect(await createAuthConfig({}, 'svc')).toMatchObject({
      jwksUri: 'https://e/jwks',
      issuer: 'https://e',
      audience: 'aud',
      algorithms: ['ES256'],
    });
  });

  it('stops the boot in production when the issuer configuration is missing, naming what is missing', async () => {
    process.env.NODE_ENV = 'production';
    delete process.env.MCP_JWKS_URI;
    await expect(createAuthConfig({ issuer: 'https://idp.example' }, 'svc')).rejects.toThrow(
      /missing MCP_JWKS_URI, MCP_JWT_AUDIENCE .*required when NODE_ENV=production/,
    );
    await expect(createAuthConfig({}, 'svc')).rejects.toThrow(/missing MCP_JWKS_URI, MCP_JWT_ISSUER, MCP_JWT_AUDIENCE/);
  });

  it('refuses to disable authentication in production', async () => {
    process.env.NODE_ENV = 'production';
    await expect(createAuthConfig({ disabled: true }, 'svc')).rejects.toThrow(
      /always refused when NODE_ENV=production/,
    );
    delete process.env.NODE_ENV;
    await expect(createAuthConfig({ disabled: true }, 'svc')).rejects.toThrow(/NODE_ENV is unset/);
    process.env.NODE_ENV = 'test';
    expect((await createAuthConfig({ disabled: true }, 'svc')).mode).toBe('disabled');
  });

  it('refuses to disable authentication on a host that is not loopback, as the development issuer does', async () => {
    process.env.NODE_ENV = 'development';
    for (const host of ['0.0.0.0', '::', '10.0.0.5']) {
      process.env.HOST = host;
      await expect(createAuthConfig({ disabled: true }, 'svc')).rejects.toThrow(
        `authentication is disabled and HOST=${host} is not loopback`,
      );
    }
    process.env.HOST = '127.0.0.1';
    expect((await createAuthConfig({ disabled: true }, 'svc')).mode).toBe('disabled');
    // Serving only stdio, nothing listens on HOST.
    process.env.HOST = '0.0.0.0';
    expect((await createAuthConfig({ disabled: true }, 'svc', false)).mode).toBe('disabled');
  });

  it('refuses skew over 60 s, a JWKS TTL over 10 minutes, and algorithms other than RS256/ES256', async () => {
    await expect(createAuthConfig({ ...configured, clockSkewSec: 61 }, 'svc')).rejects.toThrow(/clockSkewSec/);
    await expect(createAuthConfig({ ...configured, jwksCacheTtlMs: 600_001 }, 'svc')).rejects.toThrow(/jwksCacheTtlMs/);
    await expect(createAuthConfig({ ...configured, algorithms: ['none' as 'RS256'] }, 'svc')).rejects.toThrow(
      /algorithms/,
    );
  });

  it('takes the JWKS refetch interval from options or MCP_JWKS_REFETCH_INTERVAL_MS, 100 ms to 60 s', async () => {
    process.env.MCP_JWKS_REFETCH_INTERVAL_MS = '1000';
    expect((await createAuthConfig(configured, 'svc')).jwksRefetchIntervalMs).toBe(1_000);
    expect(
      (await createAuthConfig({ ...configured, jwksRefetchIntervalMs: 60_000 }, 'svc')).jwksRefetchIntervalMs,
    ).toBe(60_000);
    for (const jwksRefetchIntervalMs of [99, 60_001, 1.5])
      await expect(createAuthConfig({ ...configured, jwksRefetchIntervalMs }, 'svc')).rejects.toThrow(
        /jwksRefetchIntervalMs/,
      );
  });

  it('refuses "*" origins in production', () => {
    process.env.NODE_ENV = 'production';
    expect(() => resolveMcpOptions({ name: 'svc', version: '1.0.0', allowedOrigins: ['*'] })).toThrow(
      /"\*" is not allowed when NODE_ENV=production/,
    );
  });
});

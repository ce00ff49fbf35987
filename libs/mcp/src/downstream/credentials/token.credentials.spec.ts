import type { LoggerService } from '@nestjs/common';
import { ClientCredentialsCredentials } from './client-credentials.credentials';
import { DownstreamCallInfo } from './downstream-credentials.interface';
import { DownstreamCredentialsError } from './downstream-credentials.error';
import { TokenEndpointClient } from './token-endpoint.client';
import { TokenExchangeCredentials } from './token-exchange.credentials';
import { createCredentials } from './credentials.factory';

const ISSUER = { issuer: 'https://idp.example.com', clientId: 'desk', clientSecret: 'desk-secret' };
const call = (over: Partial<DownstreamCallInfo> = {}): DownstreamCallInfo => ({
  signal: new AbortController().signal,
  deadline: Date.now() + 5000,
  ...over,
});

describe('token credentials (token endpoint mocked)', () => {
  const lines: string[] = [];
  const logger = { log: (m: string) => lines.push(m), warn: (m: string) => lines.push(m) } as LoggerService;
  let grant: jest.SpyInstance;
  let n = 0;
  beforeEach(() => {
    lines.length = 0;
    grant = jest
      .spyOn(TokenEndpointClient.prototype, 'grant')
      .mockImplementation(() => Promise.resolve({ accessToken: `issued-${++n}`, expiresIn: 300 }));
  });
  afterEach(() => grant.mockRestore());

  it('client credentials asks with the scope and the audience as resource, once, and answers a bearer header', async () => {
    const credentials = createCredentials(
      'jira',
      { type: 'client_credentials', ...ISSUER, scope: 'read', audience: 'https://jira.example.com' },
      { logger },
    );
    expect(credentials).toBeInstanceOf(ClientCredentialsCredentials);
    const [a, b] = await Promise.all([credentials.headers(call()), credentials.headers(call())]);
    expect(a).toEqual(b);
    expect(a.authorization).toMatch(/^Bearer issued-\d+$/);
    expect(grant).toHaveBeenCalledTimes(1);
    expect(grant).toHaveBeenCalledWith('client_credentials', { resource: 'https://jira.example.com', scope: 'read' });
  });

  it("token exchange sends the caller's token as subject_token, never in the headers, and caches per subject", async () => {
    const credentials = createCredentials(
      'jira',
      { type: 'token_exchange', ...ISSUER, audience: 'jira-api', scope: 'read' },
      { logger },
    );
    expect(credentials).toBeInstanceOf(TokenExchangeCredentials);
    const alice = await credentials.headers(call({ subject: 'alice', callerToken: 'caller-token-alice' }));
    expect(JSON.stringify(alice)).not.toContain('caller-token-alice');
    expect(grant).toHaveBeenCalledWith('urn:ietf:params:oauth:grant-type:token-exchange', {
      subject_token: 'caller-token-alice',
      subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
      requested_token_type: 'urn:ietf:params:oauth:token-type:access_token',
      audience: 'jira-api',
      scope: 'read',
    });
    // The same subject with a newer token of its own: the cached exchange; another subject: its own exchange.
    expect(await credentials.headers(call({ subject: 'alice', callerToken: 'caller-token-alice-2' }))).toEqual(alice);
    expect(await credentials.headers(call({ subject: 'bob', callerToken: 'caller-token-bob' }))).not.toEqual(alice);
    expect(grant).toHaveBeenCalledTimes(2);
    // Without a subject, the caller's token itself keys the cache.
    await credentials.headers(call({ callerToken: 'anonymous-1' }));
    await credentials.headers(call({ callerToken: 'anonymous-2' }));
    expect(grant).toHaveBeenCalledTimes(4);
    expect(lines.join('\n')).not.toMatch(/caller-token|issued-|anonymous-/);
  });

  it('token exchange without a caller token: no_caller_token, the issuer not asked', async () => {
    const credentials = new TokenExchangeCredentials('jira', { type: 'token_exchange', ...ISSUER, audience: 'x' }, {});
    const e = (await credentials
      .headers(call({ subject: 'alice' }))
      .catch((x: unknown) => x)) as DownstreamCredentialsError;
    expect(e).toBeInstanceOf(DownstreamCredentialsError);
    expect(e).toMatchObject({
      reason: 'no_caller_token',
      code: -32001,
      downstream: 'jira',
      data: { reason: 'no_caller_token' },
    });
    expect(grant).not.toHaveBeenCalled();
    await expect(credentials.invalidate(call())).resolves.toBeUndefined();
  });

  it("token exchange in a task's run: no_caller_token naming the task run, even with a caller token at hand", async () => {
    const credentials = new TokenExchangeCredentials('jira', { type: 'token_exchange', ...ISSUER, audience: 'x' }, {});
    const run = call({ subject: 'alice', callerToken: 'caller-token-alice', taskId: 'task-1' });
    const e = (await credentials.headers(run).catch((x: unknown) => x)) as DownstreamCredentialsError;
    expect(e).toBeInstanceOf(DownstreamCredentialsError);
    expect(e).toMatchObject({
      reason: 'no_caller_token',
      code: -32001,
      downstream: 'jira',
      data: { reason: 'no_caller_token' },
    });
    expect(e.message).toMatch(/a task run does not hold the caller's token .*client credentials/);
    expect(e.message).not.toContain('jira');
    expect(e.message).not.toContain('caller-token-alice');
    expect(grant).not.toHaveBeenCalled();
    // Client credentials do not depend on the caller: a task's run gets the service's token.
    const service = new ClientCredentialsCredentials('jira', { type: 'client_credentials', ...ISSUER }, {});
    expect(await service.headers(run)).toEqual({ authorization: expect.stringMatching(/^Bearer issued-\d+$/) });
  });

  it('invalidate() forgets the one key: the next call asks the issuer again', async () => {
    const credentials = new TokenExchangeCredentials('jira', { type: 'token_exchange', ...ISSUER, audience: 'x' }, {});
    const who = call({ subject: 'alice', callerToken: 't' });
    await credentials.headers(who);
    await credentials.invalidate(who);
    await credentials.headers(who);
    expect(grant).toHaveBeenCalledTimes(2);
  });

  it('refuses bad options at construction: an http issuer off loopback, an empty audience, a Redis cache without keys', () => {
    expect(
      () =>
        new ClientCredentialsCredentials('jira', { type: 'client_credentials', ...ISSUER, issuer: 'http://idp' }, {}),
    ).toThrow(/downstream "jira" credentials: issuer must be https/);
    expect(() => new TokenExchangeCredentials('jira', { type: 'token_exchange', ...ISSUER, audience: '' }, {})).toThrow(
      /needs an audience/,
    );
    expect(
      () => new ClientCredentialsCredentials('jira', { type: 'client_credentials', ...ISSUER }, { redis: {} as never }),
    ).toThrow(/needs the key store/);
    expect(
      () => new ClientCredentialsCredentials('jira', { type: 'client_credentials', ...ISSUER }, { maxCachedTokens: 0 }),
    ).toThrow(/maxCachedTokens must be a positive integer/);
  });
});

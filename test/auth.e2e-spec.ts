import { createHmac, createPublicKey } from 'node:crypto';
import { RunningServer, startDeskHttp } from './support/server-process';
import { TestIssuer } from './support/test-issuer';
import { authProbe } from './support/auth-probe';

const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');

/**
 * Authentication of the HTTP transport against a real JWKS issuer on loopback: every bad token is
 * refused with 401 and a Bearer challenge, and the tool behind it never runs.
 */
describe('JWT authentication (passport-jwt + JWKS)', () => {
  let server: RunningServer;
  let issuer: TestIssuer;
  let session: string;

  const { post, initialize, attemptCreate, ticketExists } = authProbe(() => ({ server, session }));
  const expectRefused = async (
    token: string | undefined,
    status: number,
    error: string | undefined,
    headers: Record<string, string> = {},
    path = '',
  ) => {
    const { res, title } = await attemptCreate(token, headers, path);
    expect(res.status).toBe(status);
    const challenge = res.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(
      /^Bearer realm="desk", resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource"/,
    );
    if (error) expect(challenge).toContain(`error="${error}"`);
    else expect(challenge).not.toContain('error=');
    const body = (await res.json()) as { error: { message: string } };
    expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32001 } });
    expect(await ticketExists(title)).toBe(false);
    return { description: /error_description="([^"]*)"/.exec(challenge)?.[1], message: body.error.message };
  };
  /** A refused token's 401 names the check that failed, in the challenge and the body alike, and no expected value. */
  const expectInvalidToken = async (token: string, failed: string) => {
    const { description, message } = await expectRefused(token, 401, 'invalid_token');
    expect(description).toBe(failed);
    expect(message).toBe(`Unauthorized: ${failed}`);
    for (const expected of ['mcp:desk', issuer.issuer]) expect(message).not.toContain(expected);
  };

  beforeAll(async () => {
    // Unknown kids refetch the JWKS at most once a second here (10 s by default).
    server = await startDeskHttp({ MCP_JWKS_REFETCH_INTERVAL_MS: '1000' });
    issuer = server.issuer!;
    session = await initialize(server.token!);
  });
  afterAll(() => server.stop());

  it('accepts valid RS256 and ES256 tokens, and the tool runs', async () => {
    for (const alg of ['RS256', 'ES256'] as const) {
      const { res, title } = await attemptCreate(await issuer.mint({ alg }));
      expect(res.status).toBe(200);
      expect(await ticketExists(title)).toBe(true);
    }
  });

  it('refuses a request without a token with 401 and a challenge naming the resource metadata', async () => {
    await expectRefused(undefined, 401, undefined);
  });

  it.each([
    ['expired', { expiresIn: -120 }, 'The access token has expired (exp)'],
    ['not yet valid (nbf beyond the allowed skew)', { notBefore: 300 }, 'The access token is not valid yet (nbf)'],
    ['from another issuer', { iss: 'https://evil.example' }, 'The access token is from another issuer (iss)'],
    ['for another audience', { aud: 'mcp:other-service' }, 'The access token is for another audience (aud)'],
  ])('refuses a token that is %s with 401 invalid_token, saying which claim failed', async (_what, o, failed) => {
    await expectInvalidToken(await issuer.mint(o), failed);
  });

  it('refuses tokens without exp or without sub (required by the corporate profile)', async () => {
    await expectInvalidToken(await issuer.mint({ omit: ['exp'] }), 'The access token has no expiry (exp)');
    await expectInvalidToken(await issuer.mint({ omit: ['sub'] }), 'The access token has no subject (sub)');
  });

  it('does not treat scope "*" from the corporate issuer as every scope (only development tokens get that)', async () => {
    const star = await issuer.mint({ scope: '*', sub: 'star' });
    const { res, title } = await attemptCreate(star);
    expect(res.status).toBe(403);
    expect(await ticketExists(title)).toBe(false);
  });

  it('refuses alg "none"', async () => {
    const claims = JSON.parse(Buffer.from((await issuer.mint()).split('.')[1], 'base64url').toString());
    await expectRefused(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`, 401, 'invalid_token');
    await expectRefused(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.x`, 401, 'invalid_token');
  });

  it('refuses a validly signed token with a critical header parameter it does not understand (RFC 7515 §4.1.11)', async () => {
    await expectRefused(await issuer.mint({ header: { crit: ['x-ext'], 'x-ext': 1 } }), 401, 'invalid_token');
    await expectRefused(
      await issuer.mint({ header: { crit: ['x-ext'], 'x-ext': 1 }, alg: 'ES256' }),
      401,
      'invalid_token',
    );
  });

  it('refuses HS256 signed with the RSA public key (algorithm confusion)', async () => {
    const jwks = (await (await fetch(issuer.jwksUri)).json()) as { keys: Record<string, unknown>[] };
    const rsa = jwks.keys.find((k) => k.kty === 'RSA')!;
    const pem = createPublicKey({ key: rsa as never, format: 'jwk' }).export({ type: 'spki', format: 'pem' });
    const claims = JSON.parse(Buffer.from((await issuer.mint()).split('.')[1], 'base64url').toString());
    const signingInput = `${b64({ alg: 'HS256', typ: 'JWT', kid: rsa.kid })}.${b64(claims)}`;
    const signature = createHmac('sha256', pem).update(signingInput).digest('base64url');
    await expectRefused(`${signingInput}.${signature}`, 401, 'invalid_token');
  });

  it('refuses a tampered signature and tampered claims', async () => {
    const [h, p, s] = (await issuer.mint()).split('.');
    const tampered = `${h}.${p}.${s.slice(0, -4)}${s.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
    await expectInvalidToken(tampered, 'The access token signature does not verify');
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    await expectInvalidToken(
      `${h}.${b64({ ...claims, sub: 'admin' })}.${s}`,
      'The access token signature does not verify',
    );
  });

  it('refuses an unknown kid, and accepts it after the issuer rotates it in (no restart)', async () => {
    const rotated = await issuer.mint({ kid: 'rs-2' });
    await new Promise((r) => setTimeout(r, 1_100));
    const fetchesBefore = issuer.jwksFetches;
    await expectRefused(rotated, 401, 'invalid_token');
    expect(issuer.jwksFetches).toBe(fetchesBefore + 1); // the unknown kid triggered one refresh
    await expectRefused(rotated, 401, 'invalid_token');
    expect(issuer.jwksFetches).toBe(fetchesBefore + 1); // and no second one within the interval
    issuer.publish('rs-2');
    await new Promise((r) => setTimeout(r, 1_100));
    const { res, title } = await attemptCreate(rotated);
    expect(res.status).toBe(200);
    expect(await ticketExists(title)).toBe(true);
  });

  it('refuses a token in the query string even with a valid header, and does not log it', async () => {
    const token = await issuer.mint();
    await expectRefused(token, 401, 'invalid_request', {}, `?access_token=${token}`);
    expect(server.stderr()).not.toContain(token);
    expect(server.stdout!()).not.toContain(token);
  });

  it("refuses a session replayed with another subject's valid token with 403", async () => {
    await expectRefused(await issuer.mint({ sub: 'mallory' }), 403, undefined);
  });

  it('refuses a disallowed Origin with 403 before authentication, even with a valid token', async () => {
    const { res, title } = await attemptCreate(server.token, { origin: 'http://evil.example.com' });
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(await res.json()).toMatchObject({ error: { code: -32600, message: expect.stringContaining('Origin') } });
    expect(await ticketExists(title)).toBe(false);
    const anonymous = await post({ jsonrpc: '2.0', id: 3, method: 'ping' }, undefined, {
      origin: 'http://evil.example.com',
    });
    expect(anonymous.status).toBe(403);
    expect(anonymous.headers.get('www-authenticate')).toBeNull();
  });

  it('answers CORS preflights for allowed origins without a token, and refuses others', async () => {
    const preflight = (origin: string) =>
      fetch(server.url, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type, mcp-session-id',
        },
      });
    const ok = await preflight('http://localhost:5173');
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(ok.headers.get('access-control-allow-methods')).toContain('POST');
    expect(ok.headers.get('access-control-allow-headers')).toMatch(/Authorization.*Mcp-Session-Id/);
    expect((await preflight('http://evil.example.com')).status).toBe(403);
    const { res } = await attemptCreate(server.token, { origin: 'http://localhost:5173' });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(res.headers.get('access-control-expose-headers')).toContain('Mcp-Session-Id');
  });

  it('describes itself in use://auth and use://http-headers, generated from the configuration', async () => {
    const read = async (uri: string) => {
      const res = await post({ jsonrpc: '2.0', id: 6, method: 'resources/read', params: { uri } }, server.token, {
        'mcp-session-id': session,
      });
      return JSON.parse(((await res.json()) as { result: { contents: { text: string }[] } }).result.contents[0].text);
    };
    const auth = await read('use://auth');
    expect(auth).toMatchObject({
      scheme: 'Bearer',
      tokenType: 'JWT',
      issuer: issuer.issuer,
      audience: issuer.audience,
      jwksUri: issuer.jwksUri,
      algorithms: ['RS256', 'ES256'],
    });
    expect(auth.scopes['tickets:write']).toEqual(['tool:create_ticket', 'tool:close_ticket']);
    expect(auth.scopes['tickets:read']).toEqual(
      expect.arrayContaining([
        'tool:search_tickets',
        'prompt:triage_ticket',
        'resource:desk://catalog/categories',
        'resourceTemplate:desk://tickets/{id}',
      ]),
    );
    const headers = await read('use://http-headers');
    expect(headers.headers.map((h: { name: string }) => h.name)).toEqual(
      expect.arrayContaining(['Authorization', 'Mcp-Session-Id', 'MCP-Protocol-Version', 'WWW-Authenticate', 'Origin']),
    );
  });

  it('checks Host before building URLs from it (no challenge or metadata for a foreign Host)', async () => {
    const { request } = await import('node:http');
    const url = new URL(server.url);
    const status = (path: string) =>
      new Promise<number>((ok, fail) => {
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            path,
            method: 'GET',
            headers: { host: 'evil.example", error="injected' },
          },
          (res) => {
            res.resume();
            ok(res.statusCode!);
          },
        );
        req.on('error', fail);
        req.end();
      });
    // Not even a host name: 400 (a plain foreign host is 403, see http-origin-host.e2e-spec.ts).
    expect(await status('/.well-known/oauth-protected-resource')).toBe(400);
    expect(await status('/mcp')).toBe(400);
  });

  it('serves protected resource metadata without a token', async () => {
    const origin = new URL(server.url).origin;
    const res = await fetch(`${origin}/.well-known/oauth-protected-resource`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      resource: server.url,
      authorization_servers: [issuer.issuer],
      bearer_methods_supported: ['header'],
      resource_name: 'Desk',
    });
  });

  it('caches verdicts per token: a burst of calls with one token needs no JWKS fetch', async () => {
    const token = await issuer.mint({ alg: 'ES256' });
    await attemptCreate(token);
    const fetches = issuer.jwksFetches;
    for (let i = 0; i < 5; i++)
      expect((await post({ jsonrpc: '2.0', id: 9, method: 'ping' }, token, { 'mcp-session-id': session })).status).toBe(
        200,
      );
    expect(issuer.jwksFetches).toBe(fetches);
  });

  it('holds a cached token to the header syntax: only "Bearer <token>" (the scheme in any case) finds its verdict', async () => {
    const token = await issuer.mint();
    expect((await attemptCreate(token)).res.status).toBe(200);
    const ping = (authorization: string) =>
      post({ jsonrpc: '2.0', id: 10, method: 'ping' }, undefined, { 'mcp-session-id': session, authorization });
    expect((await ping(`bEaReR ${token}`)).status).toBe(200);
    for (const malformed of [`Bearer  ${token}`, `Bearer\t${token}`, `Bearer ${token} x`, `Token ${token}`]) {
      const res = await ping(malformed);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('error="invalid_request"');
    }
    await expectRefused(`${token}x`, 401, 'invalid_token');
  });
});

import { createHmac } from 'node:crypto';
import { DESK_MAIN, RunningServer, startHttpServer } from './support/server-process';
import { TestIssuer } from './support/test-issuer';
import { TestIntrospection } from './support/test-introspection';
import { mcpPost } from './support/mcp-post';

const V = '2025-11-25';
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

async function rpc(url: string, body: unknown, token?: string, session?: string) {
  const res = await mcpPost(url, body, token, session ? { 'mcp-session-id': session } : {});
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}
const init = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: V, capabilities: {}, clientInfo: { name: 'profiles', version: '1' } },
};
const search = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'search_tickets', arguments: { query: 'vpn', limit: 1 } },
};

/**
 * The other token profiles of the standard: opaque tokens by introspection, HS256 for local development, anonymous
 * listing.
 */
describe('auth profiles', () => {
  describe('opaque tokens through RFC 7662 introspection', () => {
    let server: RunningServer;
    let idp: TestIntrospection;
    let issuer: TestIssuer;
    beforeAll(async () => {
      idp = await TestIntrospection.start();
      issuer = await TestIssuer.start();
      idp.tokens.set('opaque-good-token', {
        active: true,
        sub: 'svc-a',
        scope: 'tickets:read',
        aud: issuer.audience,
        iss: issuer.issuer,
        exp: Math.floor(Date.now() / 1000) + 600,
      });
      idp.tokens.set('opaque-other-audience', {
        active: true,
        sub: 'svc-b',
        scope: 'tickets:read',
        aud: 'mcp:other',
        exp: Math.floor(Date.now() / 1000) + 600,
      });
      server = await startHttpServer(DESK_MAIN, { ...issuer.env(), ...idp.env() });
    });
    afterAll(async () => {
      await server.stop();
      await idp.close();
      await issuer.close();
    });

    it('accepts an active opaque token, caches the verdict, and still verifies JWTs locally', async () => {
      const opened = await rpc(server.url, init, 'opaque-good-token');
      expect(opened.status).toBe(200);
      const session = opened.headers.get('mcp-session-id')!;
      const calls = idp.calls;
      expect((await rpc(server.url, search, 'opaque-good-token', session)).json.result.structuredContent.count).toBe(1);
      expect(idp.calls).toBe(calls);
      expect((await rpc(server.url, init, await issuer.mint())).status).toBe(200);
      expect(idp.calls).toBe(calls);
    });

    it('refuses inactive, unknown and foreign-audience tokens with 401 invalid_token', async () => {
      for (const token of ['opaque-unknown-token', 'opaque-other-audience']) {
        const res = await rpc(server.url, init, token);
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
      }
    });

    it('answers 503 with Retry-After when the introspection endpoint fails, never 200', async () => {
      idp.failing = true;
      const res = await rpc(server.url, init, 'opaque-not-cached-yet');
      idp.failing = false;
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(res.json).toMatchObject({ error: { code: -32006 } });
    });
  });

  describe('HS256 for local development', () => {
    const secret = 'a-local-development-secret-of-32+chars';
    const env = {
      MCP_JWT_HS256_SECRET: secret,
      MCP_JWT_ISSUER: 'urn:local',
      MCP_JWT_AUDIENCE: 'mcp:desk',
      MCP_JWKS_URI: '',
    };
    const hs256 = (claims: Record<string, unknown>, key = secret) => {
      const input = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}`;
      return `${input}.${createHmac('sha256', key).update(input).digest('base64url')}`;
    };
    const claims = () => ({
      iss: 'urn:local',
      aud: 'mcp:desk',
      sub: 'dev',
      scope: 'tickets:read',
      exp: Math.floor(Date.now() / 1000) + 60,
    });

    it('accepts HS256 with the configured secret outside production, and nothing signed otherwise', async () => {
      const server = await startHttpServer(DESK_MAIN, { ...env, NODE_ENV: 'development' });
      try {
        expect((await rpc(server.url, init, hs256(claims()))).status).toBe(200);
        expect((await rpc(server.url, init, hs256(claims(), 'another-secret-another-secret-xx'))).status).toBe(401);
      } finally {
        await server.stop();
      }
    });

    it('refuses to boot with an HS256 secret in production', async () => {
      const outcome = await startHttpServer(DESK_MAIN, { ...env, NODE_ENV: 'production' }).then(
        async (s) => (await s.stop(), 'started'),
        (e: Error) => e.message,
      );
      expect(outcome).toMatch(/HS256 .* refused when NODE_ENV=production/);
    });
  });

  describe('anonymous listing (off by default)', () => {
    let server: RunningServer;
    let issuer: TestIssuer;
    beforeAll(async () => {
      issuer = await TestIssuer.start();
      server = await startHttpServer(DESK_MAIN, { ...issuer.env(), MCP_ANONYMOUS_LISTING: 'true' });
    });
    afterAll(async () => {
      await server.stop();
      await issuer.close();
    });

    it('lets a caller without a token initialize and list what needs no scope, but not call', async () => {
      const opened = await rpc(server.url, init);
      expect(opened.status).toBe(200);
      const session = opened.headers.get('mcp-session-id')!;
      const tools = await rpc(server.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, undefined, session);
      expect(tools.json.result.tools).toEqual([]);
      const resources = await rpc(server.url, { jsonrpc: '2.0', id: 3, method: 'resources/list' }, undefined, session);
      expect(resources.json.result.resources.map((r: { uri: string }) => r.uri)).toEqual([
        'use://auth',
        'use://http-headers',
        'desk://agent/brief',
        'desk://agent/prompt',
        'project://version',
        'doc://readme',
      ]);
      const call = await rpc(server.url, search, undefined, session);
      expect(call.status).toBe(401);
      expect(call.headers.get('www-authenticate')).toMatch(/^Bearer realm="desk"/);
      const read = await rpc(
        server.url,
        { jsonrpc: '2.0', id: 4, method: 'resources/read', params: { uri: 'use://auth' } },
        undefined,
        session,
      );
      expect(read.status).toBe(401);
      // An anonymous session never becomes an authenticated one: a caller with a token opens its own.
      const token = await issuer.mint({ scope: 'tickets:read' });
      expect((await rpc(server.url, search, token, session)).status).toBe(403);
      const own = (await rpc(server.url, init, token)).headers.get('mcp-session-id')!;
      expect((await rpc(server.url, search, token, own)).json.result.structuredContent.count).toBe(1);
      // ... and that session is not usable without the token.
      expect((await rpc(server.url, { jsonrpc: '2.0', id: 5, method: 'tools/list' }, undefined, own)).status).toBe(401);
    });

    it('is off by default: the same list without a token is 401', async () => {
      const plain = await startHttpServer(DESK_MAIN, issuer.env());
      try {
        expect((await rpc(plain.url, init)).status).toBe(401);
      } finally {
        await plain.stop();
      }
    });
  });
});

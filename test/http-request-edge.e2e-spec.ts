import { RunningServer, startAuthorizedDesk } from './support/server-process';
import { ACCEPT_BOTH, authHeader, initializeRequest } from './support/raw-mcp-http';
import { RawAnswer, rawExchange } from './support/raw-socket-http';
import { rpcError } from './support/rpc-matchers';

/**
 * The HTTP edge with the bytes written by hand on a socket, on either adapter: the authority a request names (its
 * `Host`, or the request target in absolute form) is a plain host[:port] of the allow-list, a body in a content coding
 * the server does not decode is refused with 415, and a percent-escaped spelling of a platform path is 404 on both
 * adapters (Express never routes it; Fastify's router would decode it to the endpoint).
 */
describe('the HTTP edge: authority, content coding, escaped paths', () => {
  let server: RunningServer;
  let authority: string;
  const body = JSON.stringify(initializeRequest('2025-11-25'));

  beforeAll(async () => {
    server = await startAuthorizedDesk({ MCP_LEGACY_SSE: 'true' });
    authority = new URL(server.url).host;
  });
  afterAll(async () => {
    await server.stop();
  });

  /** A POST of an initialize request as a conforming client sends it, with `headers` over the defaults. */
  const send = (target: string, headers: Record<string, string> = {}, method = 'POST'): Promise<RawAnswer> =>
    rawExchange(
      server.url,
      method,
      target,
      {
        host: authority,
        ...authHeader(server.url),
        'content-type': 'application/json',
        accept: ACCEPT_BOTH,
        ...headers,
      },
      method === 'POST' ? body : '',
    );
  const outcome = (answer: RawAnswer) => ({ status: answer.status, body: JSON.parse(answer.text) as unknown });

  it('serves the endpoint named as the client should: origin form, or absolute form naming the Host', async () => {
    expect((await send('/mcp')).status).toBe(200);
    expect((await send(`http://${authority}/mcp`)).status).toBe(200);
    expect((await send('/mcp', { host: `localhost:${new URL(server.url).port}` })).status).toBe(200);
  });

  it('refuses a request target in absolute form naming another host with 403, as a foreign Host', async () => {
    for (const target of ['http://evil.example.com/mcp', `http://evil.example.com:${new URL(server.url).port}/mcp`]) {
      expect({ target, ...outcome(await send(target)) }).toEqual({
        target,
        status: 403,
        body: rpcError(null, -32600, 'Forbidden: Host not allowed'),
      });
    }
  });

  it('refuses with 400 a Host or a target authority that is not a plain host[:port], or names another host', async () => {
    const port = new URL(server.url).port;
    for (const host of [
      `127.0.0.1:${port}@evil.example.com`,
      '127.0.0.1:evil.example.com',
      '[::1]@evil.example.com',
      `127.0.0.1:${port}/evil`,
      `user@127.0.0.1:${port}`,
    ]) {
      expect({ host, ...outcome(await send('/mcp', { host })) }).toEqual({
        host,
        status: 400,
        body: rpcError(null, -32600, 'Bad Request: Host must be a host name or address with an optional port'),
      });
    }
    for (const target of [`http://user@127.0.0.1:${port}/mcp`, `http://127.0.0.1:${port}@evil.example.com/mcp`]) {
      expect({ target, ...outcome(await send(target)) }).toEqual({
        target,
        status: 400,
        body: rpcError(null, -32600, /^Bad Request: the request target's authority must be a host name/),
      });
    }
    // Both allowed, but not the same: the request names two hosts.
    expect(outcome(await send(`http://localhost:${port}/mcp`))).toEqual({
      status: 400,
      body: rpcError(null, -32600, "Bad Request: the request target's authority and Host differ"),
    });
  });

  it('refuses a body in a content coding it does not decode with 415, naming the one it accepts', async () => {
    for (const coding of ['gzip', 'br', 'deflate', 'x-custom', 'gzip, identity']) {
      const answer = await send('/mcp', { 'content-encoding': coding });
      expect({ coding, ...outcome(answer) }).toEqual({
        coding,
        status: 415,
        body: rpcError(null, -32600, 'Unsupported Media Type: Content-Encoding must be identity (no compression)'),
      });
      expect((JSON.parse(answer.text) as { error: { data: unknown } }).error.data).toMatchObject({
        accepted: ['identity'],
      });
      expect(answer.headers['accept-encoding']).toBe('identity');
    }
    expect((await send('/mcp', { 'content-encoding': 'identity' })).status).toBe(200);
    // The legacy transport's POST alike, before it looks for the session.
    const legacy = await send('/messages?sessionId=unknown', { 'content-encoding': 'gzip' });
    expect(outcome(legacy)).toEqual({ status: 415, body: rpcError(null, -32600, /Content-Encoding must be identity/) });
  });

  it('answers a percent-escaped spelling of a platform path with 404 on both adapters, as Express routes it', async () => {
    const escaped: [string, string][] = [
      ['POST', '/%6dcp'],
      ['POST', '/%4dCP'],
      ['POST', '/m%63p'],
      ['POST', '/%4D%43%50/'],
      ['GET', '/%6dcp'],
      ['DELETE', '/mc%70'],
      ['GET', '/%73se'],
      ['POST', '/m%65ssages?sessionId=x'],
      ['GET', '/.well-known/oauth-protected-resourc%65'],
      ['GET', '/.well-known/oauth-protected-resource/%6dcp'],
    ];
    for (const [method, target] of escaped) {
      expect({ method, target, ...outcome(await send(target, {}, method)) }).toEqual({
        method,
        target,
        status: 404,
        body: { statusCode: 404, error: 'Not Found', message: `Cannot ${method} ${target}` },
      });
    }
    // Case and a trailing slash are spellings both routers take alike.
    expect((await send('/MCP/')).status).toBe(200);
  });
});

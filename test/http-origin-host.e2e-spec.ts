import { request as httpRequest } from 'node:http';
import { RunningServer, bearer, startDeskHttp } from './support/server-process';
import {
  ACCEPT_BOTH,
  authorize,
  call,
  get,
  initializeRequest,
  openSession,
  post,
  rawRequest,
} from './support/raw-mcp-http';
import { rpcError, rpcResult } from './support/rpc-matchers';

/**
 * DNS rebinding protection on Streamable HTTP: a foreign Origin or Host is refused before anything else runs,
 * however the request spells the endpoint (case, trailing slash, absolute form, a fragment; percent-escapes are 404),
 * on either adapter; a malformed Content-Type is the platform's own 415. The authority's syntax, content codings and
 * escaped paths byte for byte: http-request-edge.e2e-spec.ts.
 */
describe('Origin and Host (DNS rebinding protection)', () => {
  const V = '2025-11-25';
  let server: RunningServer;
  let url: string;
  let sid: string;

  beforeAll(async () => {
    server = await startDeskHttp();
    url = server.url;
    authorize(server);
    sid = await openSession(url, V);
  });
  afterAll(async () => {
    await server.stop();
  });

  const inSession = (message: unknown, version: string | undefined = V) => call(url, sid, message, version);

  it('refuses a foreign Origin with 403 on POST, GET and DELETE; the session survives', async () => {
    const origin = { origin: 'http://evil.example.com' };
    const posted = await post(url, { jsonrpc: '2.0', id: 1, method: 'ping' }, { sessionId: sid, headers: origin });
    expect(posted.status).toBe(403);
    expect(await posted.json()).toEqual(rpcError(null, -32600, /Origin/));
    expect((await get(url, sid, origin)).status).toBe(403);
    expect(
      (await fetch(url, { method: 'DELETE', headers: { ...bearer(server), ...origin, 'mcp-session-id': sid } })).status,
    ).toBe(403);
    expect((await inSession({ jsonrpc: '2.0', id: 2, method: 'ping' })).status).toBe(200);
  });

  it('refuses a foreign Origin however the endpoint is spelled: case, a trailing slash; escapes are 404', async () => {
    // Both routers take the case and a trailing slash alike; a percent-escaped spelling is routed by neither (the
    // platform answers it 404 on Fastify too, whose router would decode it to the endpoint).
    const spellings: [string, number][] = [
      ['/MCP', 403],
      ['/mcp/', 403],
      ['/%6Dcp', 404],
      ['/%6dcp/', 404],
      ['/m%63p', 404],
      ['/%4D%43%50', 404],
    ];
    for (const [path, status] of spellings) {
      const res = await post(
        new URL(path, url).href,
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { sessionId: sid, headers: { origin: 'http://evil.example.com' } },
      );
      expect({ path, status: res.status }).toEqual({ path, status });
      if (res.status === 403) expect(await res.json()).toEqual(rpcError(null, -32600, /Origin/));
    }
  });

  it('refuses a foreign Origin on a request target in absolute form or with a fragment', async () => {
    const { hostname, port } = new URL(url);
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    for (const path of ['/mcp#x', `http://${hostname}:${port}/mcp`, `http://${hostname}:${port}/MCP/#y`]) {
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          {
            hostname,
            port,
            path,
            method: 'POST',
            headers: {
              ...bearer(server),
              origin: 'http://evil.example.com',
              'content-type': 'application/json',
              accept: ACCEPT_BOTH,
              'mcp-session-id': sid,
            },
          },
          (res) => (res.resume(), resolve(res.statusCode ?? 0)),
        );
        req.on('error', reject);
        req.end(body);
      });
      // 403 where the endpoint is reached; 404 or 400 where the router takes no such target.
      expect({ path, refused: [400, 403, 404].includes(status) }).toEqual({ path, refused: true });
    }
  });

  it('answers a malformed Content-Type in its own terms on either adapter (415, JSON-RPC)', async () => {
    for (const type of ['a', 'application/json (x)', 'application/json, text/plain']) {
      const res = await post(
        url,
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { sessionId: sid, headers: { 'content-type': type } },
      );
      expect({ type, status: res.status }).toEqual({ type, status: 415 });
      expect(await res.json()).toEqual(rpcError(null, -32600, /Content-Type/));
    }
  });

  it('refuses a foreign Host with 403', async () => {
    const body = JSON.stringify(initializeRequest(V));
    const res = await rawRequest(
      url,
      'POST',
      { host: 'evil.example.com', 'content-type': 'application/json', accept: ACCEPT_BOTH },
      body,
    );
    expect(res.status).toBe(403);
    expect(res.headers['mcp-session-id']).toBeUndefined();
    expect(JSON.parse(res.text)).toEqual(rpcError(null, -32600, /Host/));
    const localhost = await rawRequest(
      url,
      'POST',
      { host: `localhost:${new URL(url).port}`, 'content-type': 'application/json', accept: ACCEPT_BOTH },
      body,
    );
    expect(localhost.status).toBe(200);
  });

  it('accepts a loopback Origin on any port', async () => {
    const res = await post(
      url,
      { jsonrpc: '2.0', id: 3, method: 'ping' },
      { sessionId: sid, headers: { origin: 'http://localhost:5173' } },
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(rpcResult(3, {}));
  });
});

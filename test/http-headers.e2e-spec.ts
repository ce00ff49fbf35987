import { IncomingHttpHeaders, request } from 'node:http';
import { RunningServer, startDeskHttp } from './support/server-process';
import { mcpPost, openMcpSession } from './support/mcp-post';

/**
 * Header-level hardening of the HTTP surface: a request with two Authorization headers is refused (Node keeps
 * only the first, so a valid token behind garbage, or the reverse, must not pass silently), responses do not
 * announce the framework, and session ids carry 256 random bits.
 */
describe('HTTP header hardening', () => {
  let server: RunningServer;
  let session: string;

  beforeAll(async () => {
    server = await startDeskHttp();
    session = await openMcpSession(server.url, server.token);
  });
  afterAll(() => server.stop());

  const ticketExists = async (title: string) => {
    const res = await mcpPost(
      server.url,
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_tickets', arguments: { query: title } } },
      server.token,
      { 'mcp-session-id': session },
    );
    return (
      ((await res.json()) as { result: { structuredContent: { count: number } } }).result.structuredContent.count > 0
    );
  };

  it('refuses two Authorization headers with 400 invalid_request, whichever comes first, and runs nothing', async () => {
    const title = `duplicate authorization ${Date.now()}`;
    for (const pair of [
      [`Bearer ${server.token}`, 'Bearer garbage'],
      ['Bearer garbage', `Bearer ${server.token}`],
    ]) {
      const answer = await rawPost(server.url, pair, session, title);
      expect(answer.status).toBe(400);
      expect(answer.headers['www-authenticate']).toContain('error="invalid_request"');
      expect(JSON.parse(answer.body)).toMatchObject({ error: { code: -32600 } });
    }
    expect(await ticketExists(title)).toBe(false);
  });

  it('does not announce the framework (no X-Powered-By) and issues session ids of 256 random bits', async () => {
    const res = await mcpPost(server.url, { jsonrpc: '2.0', id: 9, method: 'ping' }, server.token, {
      'mcp-session-id': session,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-powered-by')).toBeNull();
    expect((await fetch(server.url.replace('/mcp', '/health'))).headers.get('x-powered-by')).toBeNull();
    // Nor on a target no route or middleware sees (`OPTIONS *`, an unknown path).
    const { hostname, port } = new URL(server.url);
    for (const [method, path] of [
      ['OPTIONS', '*'],
      ['GET', '/no-such-page'],
    ]) {
      const headers = await new Promise<IncomingHttpHeaders>((resolve, reject) => {
        const req = request({ hostname, port, path, method }, (res) => (res.resume(), resolve(res.headers)));
        req.on('error', reject);
        req.end();
      });
      expect({ method, path, poweredBy: headers['x-powered-by'] }).toEqual({ method, path, poweredBy: undefined });
    }
    expect(session).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

/** A tools/call with raw header lines, so the same header can be sent twice (fetch would merge them). */
function rawPost(
  url: string,
  authorizations: string[],
  session: string,
  title: string,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 5,
    method: 'tools/call',
    params: {
      name: 'create_ticket',
      arguments: {
        title,
        description: 'probe',
        category: 'access',
        priority: 'low',
        requester: 'p@example.com',
        idempotencyKey: `dup-auth-${Date.now()}`,
      },
    },
  });
  const headers = [
    // Raw header lines get no defaults from Node: Host must be given.
    'Host',
    new URL(url).host,
    'Content-Type',
    'application/json',
    'Accept',
    'application/json, text/event-stream',
    'Mcp-Session-Id',
    session,
    'MCP-Protocol-Version',
    '2025-11-25',
    ...authorizations.flatMap((value) => ['Authorization', value]),
  ];
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

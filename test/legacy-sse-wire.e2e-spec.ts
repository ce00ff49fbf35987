import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { bearer, RunningServer, startLegacySseDesk } from './support/server-process';
import { SseReader, messageOf, rawRequest, post } from './support/raw-mcp-http';
import { DESK_CAPABILITIES, rpcError, rpcResult } from './support/rpc-matchers';

/** The legacy HTTP+SSE transport of 2024-11-05 on the wire, by hand, with MCP_LEGACY_SSE=true. */
describe('legacy HTTP+SSE transport (2024-11-05)', () => {
  let server: RunningServer;
  let base: string;
  beforeAll(async () => void ({ server, base } = await startLegacySseDesk()));
  afterAll(() => server.stop());

  describe('by hand', () => {
    /** Opens `GET /sse` and returns the reader, the endpoint URL and the session id. */
    async function connect(): Promise<{
      reader: SseReader;
      abort: AbortController;
      endpoint: string;
      sessionId: string;
    }> {
      const abort = new AbortController();
      const res = await fetch(`${base}/sse`, {
        headers: { ...bearer(server), accept: 'text/event-stream' },
        signal: abort.signal,
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      expect(res.headers.get('mcp-session-id')).toBeNull();
      const reader = new SseReader(res);
      const first = await reader.next();
      expect(first?.event).toBe('endpoint');
      const m = /^\/messages\?sessionId=([A-Za-z0-9_-]{43})$/.exec(first!.data);
      expect(m).not.toBeNull();
      return { reader, abort, endpoint: `${base}${first!.data}`, sessionId: m![1] };
    }

    const send = (endpoint: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(endpoint, {
        method: 'POST',
        headers: { ...bearer(server), 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });

    const initialize = (protocolVersion: string) => ({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw-legacy', version: '1.0.0' } },
    });

    /** initialize + initialized; returns the initialize result. */
    async function handshake(endpoint: string, reader: SseReader, version: string): Promise<Record<string, any>> {
      const res = await send(endpoint, initialize(version));
      expect(res.status).toBe(202);
      const answer = messageOf((await reader.next())!);
      expect((await send(endpoint, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
      return answer;
    }

    it('negotiates 2024-11-05: endpoint event, 202 for each POST, answers as message events', async () => {
      const { reader, abort, endpoint } = await connect();
      try {
        const answer = await handshake(endpoint, reader, '2024-11-05');
        expect(answer).toEqual(
          rpcResult(1, expect.objectContaining({ protocolVersion: '2024-11-05', capabilities: DESK_CAPABILITIES })),
        );
        const res = await send(endpoint, {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'get_ticket', arguments: { id: 'HD-1' } },
        });
        expect(res.status).toBe(202);
        expect(await res.text()).toBe('');
        const event = (await reader.next())!;
        expect(event.event).toBe('message');
        const result = messageOf(event);
        expect(result.id).toBe(2);
        // 2024-11-05 has no structuredContent: it is folded into text.
        expect(result.result.structuredContent).toBeUndefined();
        expect(result.result.content[0].text).toContain('HD-1');
      } finally {
        abort.abort();
      }
    });

    it('answers the same version the SDK asks for (the latest) too', async () => {
      const { reader, abort, endpoint } = await connect();
      try {
        const answer = await handshake(endpoint, reader, LATEST_PROTOCOL_VERSION);
        expect(answer.result.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
      } finally {
        abort.abort();
      }
    });

    it('takes batches through the dispatcher: answered on 2025-03-26, refused on 2024-11-05', async () => {
      const a = await connect();
      const b = await connect();
      try {
        await handshake(a.endpoint, a.reader, '2025-03-26');
        const batch = [
          { jsonrpc: '2.0', id: 'p1', method: 'ping' },
          { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
          { jsonrpc: '2.0', id: 'p2', method: 'ping' },
        ];
        expect((await send(a.endpoint, batch)).status).toBe(202);
        expect(messageOf((await a.reader.next())!)).toEqual([rpcResult('p1', {}), rpcResult('p2', {})]);
        await handshake(b.endpoint, b.reader, '2024-11-05');
        expect((await send(b.endpoint, batch)).status).toBe(202);
        expect(messageOf((await b.reader.next())!)).toEqual(rpcError(null, -32600, /batches are not supported/));
      } finally {
        a.abort.abort();
        b.abort.abort();
      }
    });

    it('refuses requests before initialize on the stream, like every transport', async () => {
      const { reader, abort, endpoint } = await connect();
      try {
        expect((await send(endpoint, { jsonrpc: '2.0', id: 7, method: 'tools/list' })).status).toBe(202);
        expect(messageOf((await reader.next())!)).toEqual(rpcError(7, -32600, /initialize/));
      } finally {
        abort.abort();
      }
    });

    it('closes the session when the client disconnects', async () => {
      const { reader, abort, endpoint } = await connect();
      await handshake(endpoint, reader, '2024-11-05');
      abort.abort();
      let status = 0;
      for (let i = 0; i < 50 && status !== 404; i++) {
        await new Promise((r) => setTimeout(r, 20));
        status = (await send(endpoint, { jsonrpc: '2.0', id: 3, method: 'ping' })).status;
      }
      expect(status).toBe(404);
    });

    it('answers POST errors with statuses and JSON-RPC bodies', async () => {
      const { reader, abort, endpoint, sessionId } = await connect();
      try {
        const unknown = await send(`${base}/messages?sessionId=00000000-0000-0000-0000-000000000000`, {
          jsonrpc: '2.0',
          id: 1,
          method: 'ping',
        });
        expect(unknown.status).toBe(404);
        expect(unknown.headers.get('content-type')).toBe('application/json');
        expect(await unknown.json()).toEqual(rpcError(null, -32600, /Not Found/));

        const missing = await send(`${base}/messages`, { jsonrpc: '2.0', id: 1, method: 'ping' });
        expect(missing.status).toBe(400);
        expect(await missing.json()).toEqual(rpcError(null, -32600, /sessionId/));

        const wrongType = await send(
          endpoint,
          { jsonrpc: '2.0', id: 1, method: 'ping' },
          { 'content-type': 'text/plain' },
        );
        expect(wrongType.status).toBe(415);
        expect(await wrongType.json()).toEqual(rpcError(null, -32600, /Content-Type/));

        const malformed = await send(endpoint, '{"jsonrpc":"2.0","id":1,"method":');
        expect(malformed.status).toBe(400);
        expect(await malformed.json()).toEqual(rpcError(null, -32700, /Parse error/));

        const notRpc = await send(endpoint, { hello: 'world' });
        expect(notRpc.status).toBe(400);
        expect(await notRpc.json()).toEqual(rpcError(null, -32600, /Invalid Request/));

        const tooLarge = await send(endpoint, {
          jsonrpc: '2.0',
          id: 1,
          method: 'ping',
          params: { pad: 'x'.repeat(1_100_000) },
        });
        expect(tooLarge.status).toBe(413);
        expect(await tooLarge.json()).toEqual(rpcError(null, -32005, /Payload too large/));

        // None of these produced anything on the stream, and the session still works.
        expect((await send(endpoint, { jsonrpc: '2.0', id: 'ping-1', method: 'ping' })).status).toBe(202);
        expect(messageOf((await reader.next())!)).toEqual(rpcResult('ping-1', {}));
        expect(sessionId).toBeTruthy();
      } finally {
        abort.abort();
      }
    });

    it("binds the session to the subject that opened it: another subject's valid token gets 403", async () => {
      const { reader, abort, endpoint } = await connect();
      await handshake(endpoint, reader, '2024-11-05');
      const mallory = await server.issuer!.mint({ sub: 'mallory' });
      const res = await send(
        endpoint,
        { jsonrpc: '2.0', id: 7, method: 'tools/list' },
        { Authorization: `Bearer ${mallory}` },
      );
      expect(res.status).toBe(403);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="desk"/);
      abort.abort();
    });

    it('keeps legacy sessions off the Streamable HTTP endpoint (404 there)', async () => {
      const { reader, abort, endpoint, sessionId } = await connect();
      await handshake(endpoint, reader, '2024-11-05');
      const res = await post(`${base}/mcp`, { jsonrpc: '2.0', id: 5, method: 'ping' }, { sessionId });
      expect(res.status).toBe(404);
      abort.abort();
    });

    it('refuses a GET /sse that does not accept text/event-stream with 406', async () => {
      const res = await fetch(`${base}/sse`, { headers: { ...bearer(server), accept: 'application/json' } });
      expect(res.status).toBe(406);
      expect(await res.json()).toEqual(rpcError(null, -32600, /Not Acceptable/));
    });

    it('refuses a disallowed Origin or Host with 403 on both endpoints', async () => {
      const sse = await fetch(`${base}/sse`, {
        headers: { ...bearer(server), accept: 'text/event-stream', origin: 'https://evil.example.com' },
      });
      expect(sse.status).toBe(403);
      expect(await sse.json()).toEqual(rpcError(null, -32600, /Origin not allowed/));
      const { abort, endpoint } = await connect();
      try {
        const post = await send(
          endpoint,
          { jsonrpc: '2.0', id: 1, method: 'ping' },
          { origin: 'https://evil.example.com' },
        );
        expect(post.status).toBe(403);
        const host = await rawRequest(`${base}/sse`, 'GET', { accept: 'text/event-stream', host: 'evil.example.com' });
        expect(host.status).toBe(403);
        expect(JSON.parse(host.text)).toEqual(rpcError(null, -32600, /Host not allowed/));
        const allowed = await send(
          endpoint,
          { jsonrpc: '2.0', id: 1, method: 'ping' },
          { origin: 'http://localhost:5173' },
        );
        expect(allowed.status).toBe(202);
      } finally {
        abort.abort();
      }
    });
  });
});

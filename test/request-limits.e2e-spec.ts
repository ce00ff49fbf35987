import { RunningServer, startDeskHttp } from './support/server-process';
import { mcpPost } from './support/mcp-post';

type Rpc = { id: unknown; result?: unknown; error?: { code: number; message: string; data?: Record<string, unknown> } };

/** Opens a session on `version` (2025-03-26 is the revision with JSON-RPC batches) and returns its id. */
async function openSession(url: string, token: string, version: string): Promise<string> {
  const init = {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'limits', version: '1' } },
  };
  const res = await mcpPost(url, init, token, { 'mcp-protocol-version': version });
  expect(res.status).toBe(200);
  const id = res.headers.get('mcp-session-id')!;
  const sent = await mcpPost(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, token, {
    'mcp-session-id': id,
    'mcp-protocol-version': version,
  });
  expect(sent.status).toBe(202);
  return id;
}

const pings = (n: number, prefix = 'p') =>
  Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: `${prefix}${i}`, method: 'ping' }));

/**
 * Every request kind is counted per caller (issue: 2,000 pings in 0.8 s and tools/list floods were never refused),
 * and 2025-03-26 batches are bounded in messages and in answer bytes (issue: one 488 KB batch answered 48 MB).
 */
describe('request limits', () => {
  describe('requests per caller per minute', () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startDeskHttp({ MCP_REQUESTS_PER_MINUTE: '6' });
    });
    afterAll(() => server.stop());

    it('refuses pings and lists past the budget with 429 -32003 and Retry-After; other callers are not affected', async () => {
      const alice = await server.issuer!.mint({ sub: 'alice' });
      const sid = await openSession(server.url, alice, '2025-11-25');
      const headers = { 'mcp-session-id': sid };
      // initialize is bounded on its own (initializePerMinute); the budget here is 6 requests.
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await mcpPost(server.url, pings(1, `a${i}`)[0], alice, headers)).status);
      for (let i = 0; i < 3; i++) {
        const list = { jsonrpc: '2.0', id: `l${i}`, method: 'tools/list' };
        statuses.push((await mcpPost(server.url, list, alice, headers)).status);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
      const refused = await mcpPost(server.url, { jsonrpc: '2.0', id: 'over', method: 'ping' }, alice, headers);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      const body = (await refused.json()) as Rpc;
      expect(body).toMatchObject({ id: 'over', error: { code: -32003, data: { retryAfter: expect.any(Number) } } });
      expect(body.error!.message).toMatch(/too many requests/);
      const listRefused = await mcpPost(server.url, { jsonrpc: '2.0', id: 'l', method: 'tools/list' }, alice, headers);
      expect(listRefused.status).toBe(429);

      const bob = await server.issuer!.mint({ sub: 'bob' });
      const bobSid = await openSession(server.url, bob, '2025-11-25');
      const ok = await mcpPost(server.url, pings(1, 'b')[0], bob, { 'mcp-session-id': bobSid });
      expect(ok.status).toBe(200);
    });

    it('counts every message of a batch against the same budget', async () => {
      const carol = await server.issuer!.mint({ sub: 'carol' });
      const sid = await openSession(server.url, carol, '2025-03-26');
      const res = await mcpPost(server.url, pings(10), carol, {
        'mcp-session-id': sid,
        'mcp-protocol-version': '2025-03-26',
      });
      expect(res.status).toBe(200);
      const answers = (await res.json()) as Rpc[];
      expect(answers).toHaveLength(10);
      expect(answers.filter((a) => a.result !== undefined)).toHaveLength(6);
      expect(answers.filter((a) => a.error?.code === -32003)).toHaveLength(4);
    });

    it('counts refusals in mcp_rate_limit_events_total{limit="requests"} by method', async () => {
      const url = /metrics on (http:\/\/\S+)/.exec(server.stderr())![1];
      const scrape = await (await fetch(url)).text();
      expect(scrape).toMatch(/mcp_rate_limit_events_total\{[^}]*target="ping"[^}]*limit="requests"[^}]*\} 5$/m);
      // Refused before its body was read (the caller was known to be over its budget): its method is unknown.
      expect(scrape).toMatch(/mcp_rate_limit_events_total\{[^}]*target="unread"[^}]*limit="requests"[^}]*\} 1$/m);
    });
  });

  describe('2025-03-26 batches', () => {
    let server: RunningServer;
    let token: string;
    let headers: Record<string, string>;
    beforeAll(async () => {
      server = await startDeskHttp({ MCP_MAX_BATCH_SIZE: '20', MCP_MAX_BATCH_RESPONSE_BYTES: '6000' });
      token = await server.issuer!.mint({});
      headers = { 'mcp-session-id': await openSession(server.url, token, '2025-03-26') };
      headers['mcp-protocol-version'] = '2025-03-26';
    });
    afterAll(() => server.stop());

    it('refuses a batch larger than maxBatchSize as a whole with 400 -32600 batch_too_large, running none of it', async () => {
      const res = await mcpPost(server.url, pings(21), token, headers);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        id: null,
        error: { code: -32600, message: expect.stringMatching(/at most 20 messages \(got 21\)/), data: { max: 20 } },
      });
      const full = await mcpPost(server.url, pings(20), token, headers);
      expect(full.status).toBe(200);
      expect((await full.json()) as Rpc[]).toHaveLength(20);
    });

    it('bounds the bytes of a batch answer: responses past the bound become -32005 errors for their ids', async () => {
      const lists = Array.from({ length: 20 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'tools/list' }));
      const res = await mcpPost(server.url, lists, token, headers);
      expect(res.status).toBe(200);
      const text = await res.text();
      const answers = JSON.parse(text) as Rpc[];
      expect(answers.map((a) => a.id).sort((a, b) => Number(a) - Number(b))).toEqual(lists.map((l) => l.id));
      const full = answers.filter((a) => a.result !== undefined);
      const cut = answers.filter((a) => a.error?.code === -32005);
      expect(full.length).toBeGreaterThanOrEqual(1);
      expect(cut.length).toBeGreaterThanOrEqual(1);
      expect(full.length + cut.length).toBe(20);
      expect(cut[0].error).toMatchObject({ data: { reason: 'batch_response_too_large', maxBytes: 6000 } });
      // Whole results fit within the bound; only the short refusals may go past it.
      const resultBytes = full.reduce((n, a) => n + Buffer.byteLength(JSON.stringify(a)), 0);
      expect(resultBytes).toBeLessThanOrEqual(6000);
      expect(Buffer.byteLength(text)).toBeLessThan(6000 + cut.length * 400);
    });
  });
});

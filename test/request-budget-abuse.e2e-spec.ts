import { RunningServer, startDeskHttp } from './support/server-process';
import { mcpPost, openMcpSession } from './support/mcp-post';
import { MODERN_META, modernPost } from './support/modern-post';

type Rpc = { id: unknown; result?: unknown; error?: { code: number; message: string; data?: Record<string, unknown> } };

/**
 * Abuse review, round two: every message a caller sends counts against its request budget, whatever it is (made-up
 * methods, malformed 2026-07-28 requests, notifications such as a flood of `notifications/cancelled`), and a
 * progress token too long to copy into every progress event is refused.
 */
describe('request budget: every message counts', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startDeskHttp({ MCP_REQUESTS_PER_MINUTE: '5' });
  });
  afterAll(() => server.stop());

  const ping = (id: string) => ({ jsonrpc: '2.0', id, method: 'ping' });

  it('counts unknown methods of a 2025 session: past the budget they and then pings get 429 -32003', async () => {
    const token = await server.issuer!.mint({ sub: 'unknown-2025' });
    const headers = { 'mcp-session-id': await openMcpSession(server.url, token) };
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await mcpPost(server.url, { jsonrpc: '2.0', id: i, method: `made/up${i}` }, token, headers);
      codes.push(((await res.json()) as Rpc).error!.code);
    }
    expect(codes).toEqual([-32601, -32601, -32601, -32601, -32601]);
    const unknown = await mcpPost(server.url, { jsonrpc: '2.0', id: 'u', method: 'made/up' }, token, headers);
    expect(unknown.status).toBe(429);
    expect(((await unknown.json()) as Rpc).error).toMatchObject({
      code: -32003,
      data: { retryAfter: expect.any(Number) },
    });
    const pinged = await mcpPost(server.url, ping('p'), token, headers);
    expect(pinged.status).toBe(429);
  });

  it('counts unknown methods inside a 2025-03-26 batch', async () => {
    const token = await server.issuer!.mint({ sub: 'unknown-batch' });
    const version = { 'mcp-protocol-version': '2025-03-26' };
    const init = {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'b', version: '1' } },
    };
    const sid = (await mcpPost(server.url, init, token, version)).headers.get('mcp-session-id')!;
    const batch = Array.from({ length: 8 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: `nope/${i}` }));
    const answers = (await (
      await mcpPost(server.url, batch, token, { ...version, 'mcp-session-id': sid })
    ).json()) as Rpc[];
    expect(answers.filter((a) => a.error?.code === -32601)).toHaveLength(5);
    expect(answers.filter((a) => a.error?.code === -32003)).toHaveLength(3);
  });

  it('counts unknown methods and malformed requests of the 2026-07-28 era', async () => {
    const token = await server.issuer!.mint({ sub: 'unknown-2026' });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await modernPost(server.url, `made/up${i}`, {}, { token, id: i })).status);
    // No protocol version in _meta: -32602 (400), still counted.
    const meta = { ...MODERN_META, 'io.modelcontextprotocol/protocolVersion': undefined };
    for (let i = 0; i < 2; i++) statuses.push((await modernPost(server.url, 'tools/list', {}, { token, meta })).status);
    expect(statuses).toEqual([404, 404, 404, 400, 400]);
    const list = await modernPost(server.url, 'tools/list', {}, { token });
    expect(list.status).toBe(429);
    expect(((await list.json()) as Rpc).error!.code).toBe(-32003);
  });

  it('counts notifications (a flood of notifications/cancelled): past the budget they are dropped and pings refused', async () => {
    const token = await server.issuer!.mint({ sub: 'cancel-flood' });
    const headers = { 'mcp-session-id': await openMcpSession(server.url, token) };
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: `r${i}` } };
      statuses.push((await mcpPost(server.url, cancel, token, headers)).status);
    }
    // A notification is never answered: 202 while counted, and for the one found over the budget (dropped); after
    // that the caller is known to be over it, and its POSTs get 429 before their bodies are read.
    expect(statuses).toEqual([202, 202, 202, 202, 202, 202, 429, 429]);
    expect((await mcpPost(server.url, ping('after'), token, headers)).status).toBe(429);
    const scrape = await (await fetch(/metrics on (http:\/\/\S+)/.exec(server.stderr())![1])).text();
    expect(scrape).toMatch(/mcp_rate_limit_events_total\{[^}]*target="notification"[^}]*limit="requests"[^}]*\} 1$/m);
    expect(scrape).toMatch(/mcp_rate_limit_events_total\{[^}]*target="unknown_method"[^}]*\} \d+$/m);
    // Metric labels never carry a method name the client made up.
    expect(scrape).not.toMatch(/made\/up|nope\//);
  });
});

describe('progress tokens are bounded', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startDeskHttp();
  });
  afterAll(() => server.stop());

  const exportCall = (progressToken: unknown) => ({
    jsonrpc: '2.0',
    id: 'x',
    method: 'tools/call',
    params: { name: 'export_tickets', arguments: {}, _meta: { progressToken } },
  });

  it('refuses a progress token over 256 characters with -32602 before the tool runs, in both eras', async () => {
    const token = await server.issuer!.mint({});
    const headers = { 'mcp-session-id': await openMcpSession(server.url, token) };
    const res = await mcpPost(server.url, exportCall('t'.repeat(900_000)), token, headers);
    const body = (await res.json()) as Rpc;
    expect(body.error).toMatchObject({
      code: -32602,
      data: { reason: 'progress_token_too_long', field: '_meta.progressToken', max: 256 },
    });
    expect(JSON.stringify(body).length).toBeLessThan(1_000);
    const nested = (await (await mcpPost(server.url, exportCall({ a: 1 }), token, headers)).json()) as Rpc;
    expect(nested.error).toMatchObject({ code: -32602, data: { reason: 'progress_token_invalid' } });

    const modern = await modernPost(
      server.url,
      'tools/call',
      { name: 'export_tickets', arguments: {} },
      { token, meta: { ...MODERN_META, progressToken: 't'.repeat(257) } },
    );
    expect(modern.status).toBe(400);
    expect(((await modern.json()) as Rpc).error).toMatchObject({
      code: -32602,
      data: { reason: 'progress_token_too_long' },
    });
  });

  it('still reports progress for a token of 256 characters', async () => {
    const token = await server.issuer!.mint({});
    const headers = { 'mcp-session-id': await openMcpSession(server.url, token) };
    const res = await mcpPost(server.url, exportCall('t'.repeat(256)), token, headers);
    const text = await res.text();
    expect(text).toContain('notifications/progress');
    expect(text).toContain('"result"');
  });
});

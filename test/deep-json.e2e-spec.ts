import { RunningServer, startDeskHttp } from './support/server-process';
import { mcpPost, openMcpSession } from './support/mcp-post';
import { MODERN_META } from './support/modern-post';
import { RawStdioServer } from './support/raw-stdio';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

/** A tools/list whose `_meta` holds an array nested `depth` levels (the request itself adds 3 levels). */
const deepList = (depth: number, meta: Record<string, unknown> = {}) =>
  `{"jsonrpc":"2.0","id":"deep","method":"tools/list","params":{"_meta":{${Object.entries(meta)
    .map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)},`)
    .join('')}"x":${nested(depth)}}}}`;

/**
 * Abuse review, round two: an 800 KB request nesting an array 100k-400k levels deep in `_meta` stalled the event loop
 * 0.1-0.55 s. Nesting past `limits.maxJsonDepth` (64) is refused before the body is parsed, on every transport.
 */
describe('deeply nested JSON', () => {
  let server: RunningServer;
  let token: string;
  beforeAll(async () => {
    server = await startDeskHttp();
    token = await server.issuer!.mint({});
  });
  afterAll(() => server.stop());

  const post = (body: string, headers: Record<string, string>) =>
    fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
        ...headers,
      },
      body,
    });

  it('refuses a 2025 request nested past 64 levels with 400 -32600 too_deep, and serves one at the limit', async () => {
    const headers = { 'mcp-session-id': await openMcpSession(server.url, token), 'mcp-protocol-version': '2025-11-25' };
    const started = performance.now();
    const refused = await post(deepList(400_000), headers);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      id: null,
      error: {
        code: -32600,
        message: expect.stringMatching(/nested deeper than 64 levels/),
        data: { reason: 'too_deep', maxDepth: 64 },
      },
    });
    // Refused by a scan, not a parse: well under the 0.1-0.55 s the parse and walks took.
    expect(performance.now() - started).toBeLessThan(2_000);
    const ok = await post(deepList(61), headers);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ id: 'deep', result: { tools: expect.any(Array) } });
    expect((await post(deepList(62), headers)).status).toBe(400);
    // Brackets inside strings do not count.
    const inString = await mcpPost(
      server.url,
      { jsonrpc: '2.0', id: 's', method: 'ping', params: { _meta: { s: '['.repeat(10_000) } } },
      token,
      headers,
    );
    expect(inString.status).toBe(200);
  });

  it('refuses the same in the 2026-07-28 era', async () => {
    const refused = await post(deepList(100_000, MODERN_META), {
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/list',
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { code: -32600, data: { reason: 'too_deep' } } });
  });
});

describe('deeply nested JSON over stdio', () => {
  let server: RawStdioServer;
  beforeAll(async () => {
    server = new RawStdioServer();
    await server.initialize();
  });
  afterAll(async () => {
    server.child.kill();
    await server.exited;
  });

  it('answers -32600 too_deep for a line nested past 64 levels and goes on serving', async () => {
    server.send(deepList(300_000));
    const refused = await server.response(null);
    expect(refused).toMatchObject({ error: { code: -32600, data: { reason: 'too_deep', maxDepth: 64 } } });
    server.send({ jsonrpc: '2.0', id: 'after', method: 'ping' });
    expect(await server.response('after')).toMatchObject({ result: {} });
  });
});

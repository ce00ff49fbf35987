import { INestApplication } from '@nestjs/common';
import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LimitsFixtureOptions, startLimitsApp } from './fixtures/limits-fixture.module';
import { SseReader, get, openSession, post, sleep } from './support/raw-mcp-http';

/**
 * The limits of the corporate standard (§14, see docs/compliance.md#s14) over real HTTP: tool timeouts, result
 * size, rate and concurrency budgets, request size. Each block boots its own fixture app, so budgets never leak
 * between blocks (with auth disabled every caller is the same "anonymous" subject).
 */
const V = '2025-11-25';

interface Booted {
  app: INestApplication;
  url: string;
  log: { entries: string[] };
  sid: string;
}

function boot(options: LimitsFixtureOptions): Booted {
  const booted = {} as Booted;
  beforeAll(async () => {
    Object.assign(booted, await startLimitsApp(options));
    booted.sid = await openSession(booted.url, V);
  });
  afterAll(() => booted.app.close());
  return booted;
}

let nextId = 1;
/** One tools/call in `b`'s session: status, headers and the parsed JSON body. */
async function callTool(b: Booted, name: string, args: Record<string, unknown> = {}, meta?: Record<string, unknown>) {
  const params = { name, arguments: args, ...(meta ? { _meta: meta } : {}) };
  const res = await post(
    b.url,
    { jsonrpc: '2.0', id: nextId++, method: 'tools/call', params },
    { sessionId: b.sid, protocolVersion: V },
  );
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: JSON.parse(text) as Record<string, any> };
}

async function until(check: () => boolean, ms = 2000): Promise<void> {
  const start = Date.now();
  while (!check() && Date.now() - start < ms) await sleep(10);
}

describe('tool timeout (limits.toolTimeoutMs = 300)', () => {
  const b = boot({ limits: { toolTimeoutMs: 300 } });

  it('a call that finishes within the bound succeeds', async () => {
    const r = await callTool(b, 'sleep', { ms: 50 });
    expect(r.status).toBe(200);
    expect(r.json.result).toEqual({ content: [{ type: 'text', text: 'slept 50 ms' }] });
    expect(b.log.entries).toContain('sleep:50:done');
  });

  // HTTP 200 under the default `spec` profile (the error in the answer, typed for SDK clients); 504 under
  // `corporate` (test/error-model).
  it('a call over the bound gets -32004 as JSON, and its AbortSignal fires', async () => {
    const started = Date.now();
    const r = await callTool(b, 'sleep', { ms: 1500 });
    // Answered before the handler's 1,500 ms would have ended (the -32004 below is the proof of the bound; a
    // loaded CI machine once took 1,315 ms to answer the 300 ms timeout).
    expect(Date.now() - started).toBeLessThan(1450);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(r.json.error).toEqual({
      code: -32004,
      message: expect.stringContaining('300 ms'),
      data: { reason: 'timeout', timeoutMs: 300, requestId: r.headers.get('x-request-id') },
    });
    await until(() => b.log.entries.includes('sleep:1500:aborted:true'));
    expect(b.log.entries).toContain('sleep:1500:aborted:true');
    await sleep(300);
    expect(b.log.entries).not.toContain('sleep:1500:done');
  });

  it('a handler that ignores its signal: the error is the only answer, its late log, progress and result go nowhere', async () => {
    const standalone = await get(b.url, b.sid, { 'mcp-protocol-version': V });
    expect(standalone.status).toBe(200);
    const events = new SseReader(standalone);
    expect(await events.next()).toMatchObject({ data: '' }); // the 2025-11-25 priming event
    const r = await callTool(b, 'stubborn', { ms: 700 }, { progressToken: 'p-late' });
    // The whole answer (one JSON body, connection ended) arrived before the handler finished.
    expect(b.log.entries).not.toContain('stubborn:700:finished');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      jsonrpc: '2.0',
      id: expect.any(Number),
      error: expect.objectContaining({ code: -32004 }),
    });
    await until(() => b.log.entries.includes('stubborn:700:finished'));
    expect(b.log.entries).toContain('stubborn:700:finished');
    expect(await events.quietFor(400)).toBe(true);
    await events.cancel();
    // The session is still healthy and the concurrency slot was released.
    expect((await callTool(b, 'sleep', { ms: 1 })).status).toBe(200);
  });

  it("a tool's own timeoutMs (1000) overrides the default both ways", async () => {
    const ok = await callTool(b, 'slow_own', { ms: 600 });
    expect(ok.status).toBe(200);
    expect(ok.json.result.content[0].text).toBe('slept 600 ms');
    const late = await callTool(b, 'slow_own', { ms: 2500 });
    expect(late.status).toBe(200);
    expect(late.json.error).toMatchObject({ code: -32004, data: { timeoutMs: 1000 } });
    await until(() => b.log.entries.includes('slow_own:2500:aborted:true'));
    expect(b.log.entries).toContain('slow_own:2500:aborted:true');
  });
});

describe('result size (limits.maxResultBytes = 1000)', () => {
  const b = boot({ limits: { maxResultBytes: 1000 } });
  // The server counts characters plus 64 per content item: 936 characters of text is exactly at the limit.
  const AT_LIMIT = 1000 - 64;

  it.each([[10], [AT_LIMIT]])('a %i-character text result passes unchanged', async (chars) => {
    const r = await callTool(b, 'big_text', { chars });
    expect(r.json.result).toEqual({ content: [{ type: 'text', text: 'x'.repeat(chars) }] });
  });

  it.each([[AT_LIMIT + 1], [50_000]])('a %i-character text result is cut, with a visible marker', async (chars) => {
    const r = await callTool(b, 'big_text', { chars });
    expect(r.status).toBe(200);
    const content = r.json.result.content as { type: string; text: string }[];
    expect(content).toHaveLength(2);
    expect(content[0].text).toMatch(/^x+$/);
    expect(content[0].text.length).toBeLessThan(1000);
    expect(content[1]).toEqual({ type: 'text', text: expect.stringMatching(/^\[truncated: .*1000-byte limit\]$/) });
    expect(r.json.result.isError).toBeUndefined();
    expect(r.text.length).toBeLessThan(1300);
  });

  it('a small structured result passes unchanged', async () => {
    const r = await callTool(b, 'big_structured', { chars: 100 });
    const structured = { id: 'r1', blob: 'y'.repeat(100) };
    expect(r.json.result).toEqual({
      content: [{ type: 'text', text: JSON.stringify(structured) }],
      structuredContent: structured,
    });
  });

  it('a large structured result gets the marker in content and truncated: true in structuredContent', async () => {
    const r = await callTool(b, 'big_structured', { chars: 5000 });
    const { content, structuredContent } = r.json.result;
    expect(content.at(-1).text).toMatch(/^\[truncated: /);
    expect(content.map((c: { text: string }) => c.text).join('').length).toBeLessThan(1000);
    expect(structuredContent).toMatchObject({ id: 'r1', truncated: true });
  });

  it('the official 1.x client accepts a truncated structured result (its outputSchema allows extra properties)', async () => {
    const client = new Client({ name: 'limits-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(b.url)));
    const result = await client.callTool({ name: 'big_structured', arguments: { chars: 5000 } });
    expect(result.structuredContent).toMatchObject({ truncated: true });
    await client.close();
  });
});

describe('rate limit (limits.callsPerMinute = 3)', () => {
  const b = boot({ limits: { callsPerMinute: 3 } });

  it('the 4th call in a minute gets -32003, HTTP 429, Retry-After and error.data.retryAfter', async () => {
    for (let i = 0; i < 3; i++) expect((await callTool(b, 'big_text', { chars: 1 })).status).toBe(200);
    const r = await callTool(b, 'big_text', { chars: 1 });
    expect(r.status).toBe(429);
    expect(r.json.error).toMatchObject({
      code: -32003,
      data: { reason: 'rate_limited', retryAfter: expect.any(Number), requestId: r.headers.get('x-request-id') },
    });
    const retryAfter = r.json.error.data.retryAfter as number;
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(r.headers.get('retry-after')).toBe(String(retryAfter));
  });

  it('tools/list is not a call: it still answers with the budget spent', async () => {
    const res = await post(
      b.url,
      { jsonrpc: '2.0', id: 'list', method: 'tools/list' },
      { sessionId: b.sid, protocolVersion: V },
    );
    expect(res.status).toBe(200);
  });
});

describe("a tool's own rateLimit and the concurrency limit (maxConcurrentCalls = 1)", () => {
  const b = boot({ limits: { maxConcurrentCalls: 1 } });

  it('limited (2 calls per minute) refuses its 3rd call while other tools keep working', async () => {
    expect((await callTool(b, 'limited')).json.result.content[0].text).toBe('ok');
    expect((await callTool(b, 'limited')).status).toBe(200);
    const third = await callTool(b, 'limited');
    expect(third.status).toBe(429);
    expect(third.json.error).toMatchObject({ code: -32003, data: { retryAfter: expect.any(Number) } });
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await callTool(b, 'big_text', { chars: 3 })).status).toBe(200);
  });

  it('of two concurrent calls, one is refused with -32003/429 and never runs; the slot frees when the other ends', async () => {
    const before = b.log.entries.length;
    const [first, second] = await Promise.all([
      callTool(b, 'sleep', { ms: 400 }),
      sleep(50).then(() => callTool(b, 'sleep', { ms: 401 })),
    ]);
    expect(first.status).toBe(200);
    expect(second.status).toBe(429);
    expect(second.json.error).toMatchObject({
      code: -32003,
      message: expect.stringContaining('at once'),
      data: { retryAfter: 1 },
    });
    expect(second.headers.get('retry-after')).toBe('1');
    expect(b.log.entries.slice(before)).toEqual(['sleep:400:start', 'sleep:400:done']);
    expect((await callTool(b, 'sleep', { ms: 1 })).status).toBe(200);
  });
});

describe('request size (maxRequestBytes = 2000)', () => {
  const b = boot({ maxRequestBytes: 2000 });

  /** A ping whose JSON body is exactly `bytes` long. */
  const pingOf = (bytes: number) => {
    const empty = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: '' } });
    return empty.replace('"pad":""', `"pad":"${'p'.repeat(bytes - empty.length)}"`);
  };

  it.each([[1999], [2000]])('a %i-byte body is accepted', async (bytes) => {
    const body = pingOf(bytes);
    expect(Buffer.byteLength(body)).toBe(bytes);
    const res = await post(b.url, body, { sessionId: b.sid, protocolVersion: V });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });

  it('a 2001-byte body is refused with 413 and -32005 carrying the request id', async () => {
    const res = await post(b.url, pingOf(2001), {
      sessionId: b.sid,
      protocolVersion: V,
      headers: { 'x-request-id': 'big-1' },
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32005, message: expect.stringContaining('2000 bytes'), data: { requestId: 'big-1' } },
    });
  });

  it('a chunked body without Content-Length is cut off at the limit too', async () => {
    const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(
        b.url,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-session-id': b.sid,
            'mcp-protocol-version': V,
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      req.write(pingOf(1500).slice(0, 1500));
      req.end('x'.repeat(1500));
    });
    expect(status).toBe(413);
    expect(JSON.parse(text).error.code).toBe(-32005);
  });
});

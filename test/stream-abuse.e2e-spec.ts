import { RunningServer, startDeskHttp } from './support/server-process';
import { mcpPost, openMcpSession } from './support/mcp-post';
import { listen } from './support/listen-stream';
import { resumeStream } from './support/sse-resume';
import { sleep } from './support/wait';

type Rpc = { error?: { code: number; message: string; data?: Record<string, unknown> } };

/** Opens and closes one listen stream; its status. */
async function listenOnce(url: string, token: string): Promise<number> {
  const opened = await listen(url, token);
  await opened.close();
  return opened.status;
}

/** Tries `attempt` every 50 ms for up to 5 s until it answers 200; the last status. */
async function eventually(attempt: () => Promise<number>): Promise<number> {
  let status = 0;
  for (let i = 0; i < 100 && status !== 200; i++) {
    status = await attempt();
    if (status !== 200) await sleep(50);
  }
  return status;
}

/** A 2025 session's GET stream; `close()` drops the connection. */
async function getStream(url: string, token: string, session: string): Promise<{ status: number; close: () => void }> {
  const abort = new AbortController();
  const res = await fetch(url, {
    signal: abort.signal,
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', 'mcp-session-id': session },
  });
  if (res.status !== 200) await res.text();
  return { status: res.status, close: () => abort.abort() };
}

/**
 * Abuse review, round two: one token held all 300 listen streams of a replica, and replays (`GET` with
 * `Last-Event-ID`) were outside every budget. Long-lived streams are capped per caller and per replica; GET and DELETE
 * count against the request budget; replayed bytes against `replayBytesPerMinute`.
 */
describe('long-lived streams are capped per caller and per replica', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startDeskHttp({ MCP_MAX_STREAMS_PER_SUBJECT: '2', MCP_MAX_STREAMS: '4' });
  });
  afterAll(() => server.stop());

  it('refuses a third listen stream of one subject with 429 -32003 stream_limit; others still get theirs', async () => {
    const alice = await server.issuer!.mint({ sub: 'alice' });
    const bob = await server.issuer!.mint({ sub: 'bob' });
    const a1 = await listen(server.url, alice);
    const a2 = await listen(server.url, alice);
    const a3 = await listen(server.url, alice);
    expect([a1.status, a2.status, a3.status]).toEqual([200, 200, 429]);
    expect(a3.body!.error).toMatchObject({ code: -32003, data: { reason: 'stream_limit', retryAfter: 5 } });
    // A 2025 GET stream counts against the same places.
    const sid = await openMcpSession(server.url, alice);
    expect((await getStream(server.url, alice, sid)).status).toBe(429);

    const b1 = await listen(server.url, bob);
    const b2 = await listen(server.url, bob);
    expect([b1.status, b2.status]).toEqual([200, 200]);
    // The replica holds 4: a fifth caller gets 503 stream_capacity, until a stream closes.
    const carol = await server.issuer!.mint({ sub: 'carol' });
    const c1 = await listen(server.url, carol);
    expect(c1.status).toBe(503);
    expect(c1.body!.error).toMatchObject({ code: -32006, data: { reason: 'stream_capacity' } });
    await a1.close();
    // A closed stream gives its place back (the server sees the close a moment later).
    expect(await eventually(() => listenOnce(server.url, carol))).toBe(200);
    await Promise.all([a2.close(), b1.close(), b2.close()]);
    expect(await eventually(() => listenOnce(server.url, alice))).toBe(200);
  });
});

describe('GET, DELETE and replays count against budgets', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startDeskHttp({ MCP_REQUESTS_PER_MINUTE: '12', MCP_REPLAY_BYTES_PER_MINUTE: '3000' });
  });
  afterAll(() => server.stop());

  it('refuses replays past replayBytesPerMinute with 429, and counts each GET against the request budget', async () => {
    const token = await server.issuer!.mint({ sub: 'replayer' });
    const sid = await openMcpSession(server.url, token);
    const call = {
      jsonrpc: '2.0',
      id: 'x',
      method: 'tools/call',
      params: { name: 'export_tickets', arguments: {}, _meta: { progressToken: 'p' } },
    };
    const res = await mcpPost(server.url, call, token, { 'mcp-session-id': sid });
    // The whole answer first: a resume of a finished stream is a replay only (a live one goes on streaming).
    const first = [...(await res.text()).matchAll(/^id: (\S+)$/gm)].map((m) => m[1]).find((id) => !id.endsWith('_0'))!;
    const statuses: number[] = [];
    let replayed = 0;
    for (let i = 0; i < 8; i++) {
      const r = await resumeStream(server.url, token, sid, first);
      statuses.push(r.status);
      if (r.status === 200) replayed += r.text.length;
    }
    // Each replay of the finished export is well over 300 bytes: the 3,000-byte budget lets a few through.
    expect(statuses[0]).toBe(200);
    expect(statuses).toContain(429);
    expect(replayed).toBeLessThanOrEqual(3_000);
    const refused = await fetch(server.url, {
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'text/event-stream',
        'mcp-session-id': sid,
        'last-event-id': first,
      },
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(((await refused.json()) as Rpc).error).toMatchObject({ code: -32003, data: { reason: 'rate_limited' } });
  });

  it('counts GET and DELETE against the request budget: past it both get 429', async () => {
    const token = await server.issuer!.mint({ sub: 'getter' });
    const sid = await openMcpSession(server.url, token);
    const statuses: number[] = [];
    for (let i = 0; i < 14; i++) {
      const g = await getStream(server.url, token, sid);
      statuses.push(g.status);
      g.close();
    }
    // 409 while the server has not yet seen the previous connection close; 429 once the 12 requests are spent.
    expect(statuses[0]).toBe(200);
    expect(statuses.slice(0, 12).every((status) => status === 200 || status === 409)).toBe(true);
    expect(statuses.slice(12)).toEqual([429, 429]);
    const del = await fetch(server.url, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}`, 'mcp-session-id': sid },
    });
    expect(del.status).toBe(429);
  });
});

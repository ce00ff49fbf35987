import { Readable } from 'node:stream';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { accepts, readJsonBody } from './http-checks';

/** A request whose body is `chunks`, with `headers`. */
const requestOf = (chunks: string[], headers: Record<string, string> = {}) =>
  Object.assign(Readable.from(chunks.map((c) => Buffer.from(c))), { headers }) as unknown as IncomingMessage;

/** A response that records the status, headers and body it was given. */
function responseRecorder() {
  const r = { status: 0, headers: {} as Record<string, unknown>, body: '', headersSent: false };
  const res = {
    get headersSent() {
      return r.headersSent;
    },
    setHeader: (k: string, v: unknown) => void (r.headers[k] = v),
    writeHead(status: number, headers: Record<string, unknown>) {
      Object.assign(r, { status, headersSent: true });
      Object.assign(r.headers, headers);
      return res;
    },
    end: (body?: string) => void (r.body = body ?? ''),
  };
  return { res: res as unknown as ServerResponse, r, json: () => JSON.parse(r.body) };
}

describe('HTTP checks', () => {
  it('reads Accept lists with parameters and wildcards', () => {
    expect(accepts('application/json, text/event-stream', 'text/event-stream')).toBe(true);
    expect(accepts('application/json;q=0.9', 'application/json')).toBe(true);
    expect(accepts('*/*', 'text/event-stream')).toBe(true);
    expect(accepts('application/json', 'text/event-stream')).toBe(false);
    expect(accepts(undefined, 'application/json')).toBe(false);
  });

  it('answers the same for a header seen before, per type, and past the bound of remembered headers', () => {
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 600; i++) {
        const header = i % 2 ? `application/json;v=${i}, text/event-stream` : `application/json;v=${i}`;
        expect(accepts(header, 'application/json')).toBe(true);
        expect(accepts(header, 'text/event-stream')).toBe(i % 2 === 1);
      }
    }
  });

  it('reads JSON bodies within the limit, answering 413 and 400 itself', async () => {
    const ok = responseRecorder();
    await expect(readJsonBody(requestOf(['{"a":', '1}']), ok.res, 100)).resolves.toEqual({ value: { a: 1 } });
    expect(ok.r.status).toBe(0);

    const large = responseRecorder();
    await expect(readJsonBody(requestOf(['x'.repeat(60), 'x'.repeat(60)]), large.res, 100)).resolves.toBeUndefined();
    expect(large.r.status).toBe(413);
    // Kept open: the rest of the body is read and dropped, so a client still sending it gets this answer.
    expect(large.r.headers.Connection).toBeUndefined();
    expect(large.json().error.code).toBe(-32005);

    const declared = responseRecorder();
    await expect(readJsonBody(requestOf([], { 'content-length': '101' }), declared.res, 100)).resolves.toBeUndefined();
    expect(declared.r.status).toBe(413);

    // Past 4 MiB of a refused body the connection is cut instead of read on.
    const flood = requestOf(Array.from({ length: 6 }, () => 'x'.repeat(1024 * 1024)));
    const floodRes = responseRecorder();
    await expect(readJsonBody(flood, floodRes.res, 100)).resolves.toBeUndefined();
    expect(floodRes.r.status).toBe(413);
    for (let i = 0; i < 100 && !flood.destroyed; i++) await new Promise((ok) => setImmediate(ok));
    expect(flood.destroyed).toBe(true);

    const bad = responseRecorder();
    await expect(readJsonBody(requestOf(['{nope']), bad.res, 100)).resolves.toBeUndefined();
    expect(bad.r.status).toBe(400);
    expect(bad.json().error.code).toBe(-32700);
  });

  it('refuses a body nested past the depth limit with 400 -32600 too_deep (both HTTP transports read bodies here)', async () => {
    const deep = responseRecorder();
    const body = `{"a":${'['.repeat(70)}${']'.repeat(70)}}`;
    await expect(readJsonBody(requestOf([body]), deep.res, 10_000, 64)).resolves.toBeUndefined();
    expect(deep.r.status).toBe(400);
    expect(deep.json().error).toMatchObject({ code: -32600, data: { reason: 'too_deep', maxDepth: 64 } });
    // Nest's global parser read it already: checked on the parsed value.
    const parsed = Object.assign(requestOf([]), { _body: true, body: JSON.parse(body) });
    const late = responseRecorder();
    await expect(readJsonBody(parsed, late.res, 10_000, 64)).resolves.toBeUndefined();
    expect(late.r.status).toBe(400);
    await expect(readJsonBody(requestOf([body]), responseRecorder().res, 10_000, 80)).resolves.toBeDefined();
  });

  it("takes a body Nest's global parser already read as parsed", async () => {
    const req = Object.assign(requestOf([]), { _body: true, body: { jsonrpc: '2.0', id: 1, method: 'ping' } });
    await expect(readJsonBody(req, responseRecorder().res, 10)).resolves.toEqual({
      value: { jsonrpc: '2.0', id: 1, method: 'ping' },
    });
  });
});

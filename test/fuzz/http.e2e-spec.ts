import * as fc from 'fast-check';
import { RunningServer, startDeskHttp } from '../support/server-process';
import { ACCEPT_BOTH, authHeader, authorize, openSession } from '../support/raw-mcp-http';
import { LIMIT, STATUS, expected, show } from '../support/fuzz-oracle';
import { payload } from '../support/fuzz-rpc';
import { FuzzAnswer, FuzzHttpClient } from '../support/fuzz-http';
import {
  CRASH,
  ENV,
  HTTP_GROUP,
  HTTP_IN_FLIGHT,
  HTTP_RUNS,
  MESSAGES,
  NORMAL_ANSWER,
  NORMAL_CALL,
  PROPERTY_MS,
  SEED,
  count,
  pool,
  seen,
  sent,
  sized,
  sseMessages,
  verify,
} from '../support/fuzz-harness';

/*
 * Property-based fuzzing with malformed JSON-RPC (generators and oracle in support/fuzz-rpc.ts, shared harness in
 * support/fuzz-harness.ts). For every body: nothing for a valid notification or response (HTTP 202, empty body),
 * else one well-formed JSON-RPC response (or an array with one response per request for a batch) with a documented
 * HTTP status; no stack, path or token in any answer; the server stays up, still answers ping and a tool call, and
 * logs no unhandled error. At least 10,000 bodies, counted as they are sent.
 */
describe('fuzz over Streamable HTTP: malformed JSON-RPC never crashes, hangs, leaks or gets an undocumented answer', () => {
  afterAll(() => {
    if (process.env.FUZZ_STATS)
      console.log([`sent: http ${sent.http}`, ...[...seen].sort().map(([k, n]) => `${k}: ${n}`)].join('\n'));
  });

  let server: RunningServer;
  let url: string;
  type Session = { id: string; header?: string; batches: boolean };
  let sessions: Session[];
  let client: FuzzHttpClient;

  beforeAll(async () => {
    server = await startDeskHttp(ENV);
    url = server.url;
    client = new FuzzHttpClient(url);
    authorize(server);
    // One session on the current revision, one on 2025-03-26 (the revision with JSON-RPC batches).
    sessions = [
      { id: await openSession(url, '2025-11-25'), header: '2025-11-25', batches: false },
      { id: await openSession(url, '2025-03-26'), batches: true },
    ];
  });
  afterAll(() => (client?.close(), server.stop()));

  const headersOf = (s: Session) => ({
    ...authHeader(url),
    'content-type': 'application/json',
    accept: ACCEPT_BOTH,
    'mcp-session-id': s.id,
    ...(s.header ? { 'mcp-protocol-version': s.header } : {}),
  });
  /** With fetch, for what node:http does not send as is: a chunked body (a stream). */
  const send = (body: Buffer | ReadableStream, s: Session) =>
    fetch(url, {
      method: 'POST',
      headers: headersOf(s),
      body,
      duplex: 'half',
      signal: AbortSignal.timeout(15_000),
    } as RequestInit);

  async function viaHttp(p: Buffer, s: Session): Promise<void> {
    const exp = expected(p, s.batches, false);
    const where = `http (session ${s.header ?? '2025-03-26'})`;
    let res: FuzzAnswer;
    sent.http++;
    try {
      res = await client.post(p, headersOf(s));
    } catch (e) {
      throw new Error(`${where}: no answer (${(e as Error).message})\n  sent ${show(p)}`, { cause: e });
    }
    const raw = res.text;
    const sse = res.type?.startsWith('text/event-stream') ?? false;
    let messages: unknown[];
    try {
      messages = sse ? sseMessages(raw) : raw === '' ? [] : [JSON.parse(raw)];
    } catch {
      throw new Error(
        `${where} ${res.status}: the body is not JSON\n  sent ${show(p)}\n  got ${JSON.stringify(raw.slice(0, 700))}`,
      );
    }
    const answer = verify(
      p,
      exp,
      raw,
      messages,
      [server.token!, server.token!.split('.')[2]],
      `${where} ${res.status}`,
    ) as { error?: { code: number } } | unknown[] | undefined;
    const status =
      answer === undefined ? 202 : sse || Array.isArray(answer) || !answer.error ? 200 : STATUS[answer.error.code];
    const type = answer === undefined ? null : sse ? 'text/event-stream' : 'application/json';
    if (res.status !== status || res.type !== type || (answer === undefined && raw !== '')) {
      throw new Error(
        `${where}: HTTP ${res.status} (${res.type}), expected ${status ?? 'a documented status'} (${type})\n  sent ${show(p)}\n  got ${JSON.stringify(raw.slice(0, 700))}`,
      );
    }
    if (sse && !Array.isArray(answer) && messages[messages.length - 1] !== answer)
      throw new Error(`${where}: the response is not the last SSE event\n  sent ${show(p)}`);
  }

  /**
   * The process is up, answers ping and a tool call in both sessions, and logged no unhandled error since
   * `errFrom`.
   */
  const alive = async (errFrom: number) => {
    expect(server.process.exitCode).toBeNull();
    expect(server.stderr().slice(errFrom)).not.toMatch(CRASH);
    for (const s of sessions) {
      const res = await send(Buffer.from('{"jsonrpc":"2.0","id":"alive","method":"ping"}'), s);
      expect({ status: res.status, body: await res.json() }).toEqual({
        status: 200,
        body: { jsonrpc: '2.0', id: 'alive', result: {} },
      });
      const called = await send(Buffer.from(JSON.stringify(NORMAL_CALL)), s);
      expect({ status: called.status, body: await called.json() }).toEqual({ status: 200, body: NORMAL_ANSWER });
    }
  };

  it(
    `answers at least ${MESSAGES} fuzzed bodies (${HTTP_IN_FLIGHT} in flight) as documented`,
    async () => {
      const started = Date.now();
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(payload, fc.boolean()), { minLength: HTTP_GROUP, maxLength: HTTP_GROUP }),
          async (bodies) => {
            const errFrom = server.stderr().length;
            const outcome = await pool(bodies, HTTP_IN_FLIGHT, ([p, legacy]) => viaHttp(p, sessions[legacy ? 1 : 0]))
              .then(() => undefined)
              .catch((e: unknown) => ({ failed: e }));
            // Logs travel on their own pipe: a ping round trip and a few ms let this run's arrive (not the next
            // run's).
            await client.post(
              Buffer.from('{"jsonrpc":"2.0","id":"log-fence","method":"ping"}'),
              headersOf(sessions[0]),
            );
            await new Promise((r) => setTimeout(r, 5));
            if (outcome) throw outcome.failed;
            const err = server.stderr().slice(errFrom);
            if (server.process.exitCode !== null || CRASH.test(err))
              throw new Error(`the server crashed or logged an unhandled error:\n${err.slice(-2000)}`);
          },
        ),
        { seed: SEED, numRuns: HTTP_RUNS, interruptAfterTimeLimit: PROPERTY_MS, markInterruptAsFailure: true },
      );
      if (process.env.FUZZ_STATS) console.log(`http: ${sent.http} bodies in ${Date.now() - started} ms`);
      expect(sent.http).toBeGreaterThanOrEqual(MESSAGES);
      // The limits were raised for the fuzz: it reached the handlers instead of being refused wholesale.
      expect(count('http', -32003)).toBe(0);
      expect(count('http', 'result')).toBeGreaterThan(MESSAGES / 20);
      await alive(0);
    },
    PROPERTY_MS + 30_000,
  );

  it('refuses bodies just over 1 MiB with 413 and -32005 (declared or chunked), and takes one of exactly 1 MiB', async () => {
    const errFrom = server.stderr().length;
    const chunked = (b: Buffer) =>
      new ReadableStream({ start: (c) => (c.enqueue(b.subarray(0, 1000)), c.enqueue(b.subarray(1000)), c.close()) });
    for (const body of [
      sized(LIMIT + 1),
      sized(LIMIT + 4096),
      Buffer.alloc(LIMIT + 1, 0xff),
      chunked(sized(LIMIT + 1)),
      chunked(Buffer.alloc(LIMIT + 100, 0x5b)),
    ]) {
      // fetch's errors come from another realm than jest's Error: test for the answer, not for the error.
      const res = await send(body, sessions[0]).catch((e: unknown) => e);
      if (!(res instanceof Response))
        throw new Error(`no answer to a body over the limit: ${String(res)}`, { cause: res });
      expect(res.status).toBe(413);
      expect(await res.json()).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32005, message: expect.any(String) },
      });
    }
    const exact = await send(sized(LIMIT), sessions[0]);
    expect({ status: exact.status, body: await exact.json() }).toEqual({
      status: 200,
      body: { jsonrpc: '2.0', id: 'big', result: {} },
    });
    await alive(errFrom);
  });
});

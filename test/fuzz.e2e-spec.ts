import * as fc from 'fast-check';
import { RunningServer, startDeskHttp } from './support/server-process';
import { StdioFuzzTarget } from './support/fuzz-stdio';
import { ACCEPT_BOTH, authHeader, authorize, openSession } from './support/raw-mcp-http';
import {
  Expected,
  LIMIT,
  STATUS,
  expected,
  isServerNotification,
  leakIn,
  payload,
  responseProblem,
  show,
} from './support/fuzz-rpc';

/*
 * Property-based fuzzing of both transports with malformed JSON-RPC (generators and oracle in
 * support/fuzz-rpc.ts). For every message: nothing for a valid notification or response (HTTP 202,
 * empty body), else one well-formed JSON-RPC response (or an array with one response per request for
 * a batch) with a documented HTTP status; no stack, path or token in any answer; the process stays
 * up, still answers ping and a tool call, and logs no unhandled error. At least 10,000 messages per
 * transport, counted as they are sent.
 */

/** Fixed for reproducibility; FUZZ_SEED and FUZZ_SCALE (a message multiplier) explore further by hand. */
const SEED = Number(process.env.FUZZ_SEED ?? 20_251_125);
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
/** Messages each transport must get, at the least. */
const MESSAGES = 10_000 * SCALE;
/** HTTP: bodies per property run, sent 16 at a time (a pool, not in waves) over two sessions. */
const HTTP_GROUP = 50;
const HTTP_IN_FLIGHT = 16;
const HTTP_RUNS = Math.ceil(MESSAGES / HTTP_GROUP);
/**
 * stdio: lines per property run, spread over lanes (two servers per protocol revision). A lane is strictly
 * sequential, so every answer is attributed to its line: one write carries the fuzzed line and a ping behind it.
 */
const STDIO_GROUP = 40;
const STDIO_LANES_PER_VERSION = 2;
const STDIO_RUNS = Math.ceil(MESSAGES / STDIO_GROUP);
/** A time limit for each property, so a slow machine fails with a clear message rather than a jest timeout. */
const PROPERTY_MS = 150_000 * SCALE;
/**
 * Raised so the fuzz reaches the handlers instead of the per-subject limits: calls (600 a minute), requests (3,000
 * a minute) and calls at once (16). The fuzz asserts that nothing it sent was rate limited.
 */
const ENV = {
  MCP_RATE_LIMIT_PER_MINUTE: '1000000',
  MCP_REQUESTS_PER_MINUTE: '1000000',
  MCP_MAX_CONCURRENT_CALLS: '10000',
};
/**
 * Unhandled errors, and the last-resort handlers that catch what escaped the protocol layer (Nest's, the stdio loop's).
 */
const CRASH = /unhandled|uncaught|ExceptionsHandler|stdio message failed/i;
const NL = Buffer.from('\n');

/** A ping of exactly `n` bytes. */
const PAD_HEAD = '{"jsonrpc":"2.0","id":"big","method":"ping","params":{"pad":"';
const sized = (n: number) => Buffer.from(`${PAD_HEAD}${'x'.repeat(n - PAD_HEAD.length - 3)}"}}`);

/** JSON-RPC outcomes seen, by transport and code (printed with FUZZ_STATS=1). */
const seen = new Map<string, number>();
/** Fuzzed messages sent, by transport (the ping fences and sentinels between them are not counted). */
const sent = { http: 0, stdio: 0 };
/** Responses per JSON-RPC error code seen on a transport, across all its runs. */
const count = (transport: string, code: number | 'result') => seen.get(`${transport} ${code}`) ?? 0;
/** A normal tool call: the server still does real work after the fuzz. */
const NORMAL_CALL = {
  jsonrpc: '2.0',
  id: 'alive-call',
  method: 'tools/call',
  params: { name: 'search_tickets', arguments: { query: 'vpn' } },
};
const NORMAL_ANSWER = {
  jsonrpc: '2.0',
  id: 'alive-call',
  result: expect.objectContaining({
    content: [{ type: 'text', text: expect.stringContaining('"tickets":[{"id":"HD-') }],
  }),
};

/** Runs `work` over `items` with at most `width` at once; rejects with the first failure once all have settled. */
async function pool<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { reason: unknown } | undefined;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      await work(item).catch((reason: unknown) => (failure ??= { reason }));
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  if (failure) throw failure.reason;
}

function verify(p: Buffer, exp: Expected, raw: string, messages: unknown[], secrets: string[], where: string): unknown {
  const fail = (why: string): never => {
    throw new Error(`${where}: ${why}\n  sent ${show(p)}\n  got ${JSON.stringify(raw.slice(0, 700))}`);
  };
  const leak = leakIn(raw, p.toString('utf8'), secrets);
  if (leak) fail(`the answer leaks ${leak}`);
  const answers = messages.filter((m) => !isServerNotification(m));
  if (answers.length !== exp.answers) fail(`expected ${exp.answers} answer(s), got ${answers.length}`);
  if (!exp.answers) return undefined;
  const a = answers[0] as { id?: unknown; error?: { code: number } };
  if (Array.isArray(a) !== !!exp.batch)
    fail(exp.batch ? 'a batch the session accepts must be answered with an array' : 'an array answer to a non-batch');
  const items: unknown[] = Array.isArray(a) ? a : [a];
  if (Array.isArray(a) && a.length !== exp.items)
    fail(`expected ${exp.items} response(s) in the batch answer, got ${a.length}`);
  for (const m of items) {
    const problem = responseProblem(m);
    if (problem) fail(`malformed response: ${problem}`);
    const code = (m as { error?: { code: number } }).error?.code;
    const key = `${where.split(' ')[0]} ${code ?? 'result'}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  if (!Array.isArray(a)) {
    if (exp.tooLarge && a.error?.code !== -32005) fail('a message over the limit must get -32005');
    if (exp.requestId !== undefined && a.id !== exp.requestId)
      fail(`the answer's id ${JSON.stringify(a.id)} is not the request's`);
    if (a.id !== null && a.id !== exp.echo) fail(`the answer's id ${JSON.stringify(a.id)} was never sent`);
  }
  return a;
}

function sseMessages(raw: string): unknown[] {
  return raw
    .split(/\n\n/)
    .map((block) =>
      block
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).replace(/^ /, ''))
        .join('\n'),
    )
    .filter((data) => data !== '')
    .map((data) => JSON.parse(data));
}

describe('fuzz: malformed JSON-RPC never crashes, hangs, leaks or gets an undocumented answer', () => {
  afterAll(() => {
    if (process.env.FUZZ_STATS)
      console.log(
        [`sent: http ${sent.http}, stdio ${sent.stdio}`, ...[...seen].sort().map(([k, n]) => `${k}: ${n}`)].join('\n'),
      );
  });

  describe('Streamable HTTP', () => {
    let server: RunningServer;
    let url: string;
    type Session = { id: string; header?: string; batches: boolean };
    let sessions: Session[];

    beforeAll(async () => {
      server = await startDeskHttp(ENV);
      url = server.url;
      authorize(server);
      // One session on the current revision, one on 2025-03-26 (the revision with JSON-RPC batches).
      sessions = [
        { id: await openSession(url, '2025-11-25'), header: '2025-11-25', batches: false },
        { id: await openSession(url, '2025-03-26'), batches: true },
      ];
    });
    afterAll(() => server.stop());

    const send = (body: Buffer | ReadableStream, s: Session) =>
      fetch(url, {
        method: 'POST',
        headers: {
          ...authHeader(url),
          'content-type': 'application/json',
          accept: ACCEPT_BOTH,
          'mcp-session-id': s.id,
          ...(s.header ? { 'mcp-protocol-version': s.header } : {}),
        },
        body,
        duplex: 'half',
        signal: AbortSignal.timeout(15_000),
      } as RequestInit);

    async function viaHttp(p: Buffer, s: Session): Promise<void> {
      const exp = expected(p, s.batches, false);
      const where = `http (session ${s.header ?? '2025-03-26'})`;
      let res: Response;
      let raw: string;
      sent.http++;
      try {
        res = await send(p, s);
        raw = await res.text();
      } catch (e) {
        throw new Error(`${where}: no answer (${(e as Error).message})\n  sent ${show(p)}`, { cause: e });
      }
      const sse = res.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
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
      if (
        res.status !== status ||
        (res.headers.get('content-type') ?? null) !== type ||
        (answer === undefined && raw !== '')
      ) {
        throw new Error(
          `${where}: HTTP ${res.status} (${res.headers.get('content-type')}), expected ${status ?? 'a documented status'} (${type})\n  sent ${show(p)}\n  got ${JSON.stringify(raw.slice(0, 700))}`,
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
              await (await send(Buffer.from('{"jsonrpc":"2.0","id":"log-fence","method":"ping"}'), sessions[0])).text();
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
        const res = await send(body, sessions[0]).catch((e: Error) => e);
        if (res instanceof Error) throw new Error(`no answer to a body over the limit: ${res.message}`);
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

  describe('stdio', () => {
    /** Lanes: servers on the current revision, then servers on 2025-03-26 (the revision with JSON-RPC batches). */
    let sides: StdioFuzzTarget[];
    const lanes = (legacy: boolean) =>
      sides.filter((side) => side.batches === legacy).slice(0, STDIO_LANES_PER_VERSION);

    beforeAll(async () => {
      sides = [
        ...Array.from({ length: STDIO_LANES_PER_VERSION }, () => new StdioFuzzTarget('2025-11-25', false, ENV)),
        ...Array.from({ length: STDIO_LANES_PER_VERSION }, () => new StdioFuzzTarget('2025-03-26', true, ENV)),
      ];
      for (const result of await Promise.all(sides.map((side) => side.initialize())))
        expect(result).toMatchObject({ result: { protocolVersion: expect.stringMatching(/^2025-/) } });
    });
    afterAll(() => Promise.all((sides ?? []).map((side) => side.close())));

    /**
     * Sends one fuzzed line and, in the same write, a ping behind it whose answer marks the end of what the line
     * produced (lines are handled concurrently, so the line's own answer may still come after it: waited for too).
     */
    async function viaStdio(side: StdioFuzzTarget, bytes: Buffer, counted = true): Promise<void> {
      const p = Buffer.from(bytes.map((b) => (b === 10 ? 32 : b))); // one line
      const exp = expected(p, side.batches, true);
      const from = side.out.length;
      const errFrom = side.srv.stderr.length;
      const sentinel = side.nextSentinel();
      const isSentinel = (m: unknown) => (m as { id?: unknown }).id === sentinel;
      if (counted) sent.stdio++;
      side.srv.child.stdin!.write(
        Buffer.concat([p, NL, Buffer.from(`{"jsonrpc":"2.0","id":"${sentinel}","method":"ping"}\n`)]),
      );
      const fenced = () => side.out.includes(`{"jsonrpc":"2.0","id":"${sentinel}","result":{}}\n`, from);
      const answered = () => side.messages(from).some((m) => !isServerNotification(m) && !isSentinel(m));
      await side.until(
        () => fenced() && (!exp.answers || answered()),
        `${exp.answers ? 'answer to' : 'answer to the ping after'} ${show(p)}`,
      );
      const messages = side.messages(from).filter((m) => !isSentinel(m));
      verify(p, exp, side.out.slice(from), messages, [], `stdio (${side.version})`);
      await new Promise(setImmediate); // stderr travels on its own pipe
      const err = side.srv.stderr.slice(errFrom);
      if (side.srv.child.exitCode !== null || CRASH.test(err))
        throw new Error(
          `stdio (${side.version}): crashed or logged an unhandled error after ${show(p)}:\n${err.slice(-2000)}`,
        );
    }

    it(
      `answers at least ${MESSAGES} fuzzed lines as documented (${STDIO_LANES_PER_VERSION * 2} servers in parallel)`,
      async () => {
        const started = Date.now();
        await fc.assert(
          fc.asyncProperty(
            fc.array(fc.tuple(payload, fc.boolean()), { minLength: STDIO_GROUP, maxLength: STDIO_GROUP }),
            async (lines) => {
              // Each lane takes its share of the lines one after another; the lanes run side by side.
              const queues = new Map<StdioFuzzTarget, Buffer[]>();
              lines.forEach(([p, legacy], i) => {
                const lane = lanes(legacy)[i % STDIO_LANES_PER_VERSION];
                queues.set(lane, [...(queues.get(lane) ?? []), p]);
              });
              const outcomes = await Promise.allSettled(
                [...queues].map(async ([side, ps]) => {
                  for (const p of ps) await viaStdio(side, p);
                }),
              );
              const failed = outcomes.find((o) => o.status === 'rejected');
              if (failed) throw failed.reason;
            },
          ),
          { seed: SEED, numRuns: STDIO_RUNS, interruptAfterTimeLimit: PROPERTY_MS, markInterruptAsFailure: true },
        );
        if (process.env.FUZZ_STATS) console.log(`stdio: ${sent.stdio} lines in ${Date.now() - started} ms`);
        expect(sent.stdio).toBeGreaterThanOrEqual(MESSAGES);
        expect(count('stdio', -32003)).toBe(0);
        expect(count('stdio', 'result')).toBeGreaterThan(MESSAGES / 20);
        for (const side of sides) {
          expect(side.srv.child.exitCode).toBeNull();
          expect(side.srv.stderr).not.toMatch(CRASH);
          const from = side.out.length;
          side.srv.send(NORMAL_CALL);
          await side.until(
            () => side.messages(from).some((m) => (m as { id?: unknown }).id === 'alive-call'),
            'a tool call',
          );
          expect(side.messages(from).filter((m) => !isServerNotification(m))).toEqual([NORMAL_ANSWER]);
        }
      },
      PROPERTY_MS + 30_000,
    );

    it('answers a line just over 1 MiB with -32005 and keeps reading; a line of exactly 1 MiB is handled', async () => {
      const side = sides[0];
      for (const [bytes, answer] of [
        [sized(LIMIT + 1), { jsonrpc: '2.0', id: null, error: { code: -32005, message: expect.any(String) } }],
        [
          Buffer.alloc(LIMIT + 5000, 0xff),
          { jsonrpc: '2.0', id: null, error: { code: -32005, message: expect.any(String) } },
        ],
        [sized(LIMIT), { jsonrpc: '2.0', id: 'big', result: {} }],
      ] as const) {
        const from = side.out.length;
        side.srv.child.stdin!.write(Buffer.concat([bytes, NL]));
        await side.until(() => side.messages(from).length > 0, 'answer to a 1 MiB line');
        expect(side.messages(from)).toEqual([answer]);
      }
      await viaStdio(side, Buffer.from('{"jsonrpc":"2.0","id":"after","method":"ping"}'), false);
    });
  });
});

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
 * up, still answers ping, and logs no unhandled error.
 */

/** Fixed for reproducibility; FUZZ_SEED and FUZZ_SCALE (a run multiplier) explore further by hand. */
const SEED = Number(process.env.FUZZ_SEED ?? 20_251_125);
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const HTTP_RUNS = 250 * SCALE;
const HTTP_PARALLEL = 6; // 1,500 bodies
const STDIO_RUNS = 1_500 * SCALE;
/** Raised so the fuzz reaches the handlers instead of the per-subject rate limit (600 calls a minute). */
const ENV = { MCP_RATE_LIMIT_PER_MINUTE: '100000' };
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
        [...seen]
          .sort()
          .map(([k, n]) => `${k}: ${n}`)
          .join('\n'),
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

    /** The process is up, answers ping in both sessions, and logged no unhandled error since `errFrom`. */
    const alive = async (errFrom: number) => {
      expect(server.process.exitCode).toBeNull();
      expect(server.stderr().slice(errFrom)).not.toMatch(CRASH);
      for (const s of sessions) {
        const res = await send(Buffer.from('{"jsonrpc":"2.0","id":"alive","method":"ping"}'), s);
        expect({ status: res.status, body: await res.json() }).toEqual({
          status: 200,
          body: { jsonrpc: '2.0', id: 'alive', result: {} },
        });
      }
    };

    it(
      `answers ${HTTP_RUNS * HTTP_PARALLEL} fuzzed bodies (${HTTP_PARALLEL} at a time) as documented`,
      async () => {
        await fc.assert(
          fc.asyncProperty(
            fc.array(fc.tuple(payload, fc.boolean()), { minLength: HTTP_PARALLEL, maxLength: HTTP_PARALLEL }),
            async (bodies) => {
              const errFrom = server.stderr().length;
              const outcomes = await Promise.allSettled(
                bodies.map(([p, legacy]) => viaHttp(p, sessions[legacy ? 1 : 0])),
              );
              // Logs travel on their own pipe: a ping round trip and a few ms let this run's arrive (not the next
              // run's).
              await (await send(Buffer.from('{"jsonrpc":"2.0","id":"log-fence","method":"ping"}'), sessions[0])).text();
              await new Promise((r) => setTimeout(r, 5));
              const failed = outcomes.find((o) => o.status === 'rejected');
              if (failed) throw failed.reason;
              const err = server.stderr().slice(errFrom);
              if (server.process.exitCode !== null || CRASH.test(err))
                throw new Error(`the server crashed or logged an unhandled error:\n${err.slice(-2000)}`);
            },
          ),
          { seed: SEED, numRuns: HTTP_RUNS, interruptAfterTimeLimit: 150_000 * SCALE, markInterruptAsFailure: true },
        );
        await alive(0);
      },
      180_000 * SCALE,
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
    let sides: StdioFuzzTarget[];

    beforeAll(async () => {
      // One server on the current revision, one on 2025-03-26 (the revision with JSON-RPC batches).
      sides = [new StdioFuzzTarget('2025-11-25', false, ENV), new StdioFuzzTarget('2025-03-26', true, ENV)];
      for (const side of sides)
        expect(await side.initialize()).toMatchObject({ result: { protocolVersion: side.version } });
    });
    afterAll(() => Promise.all((sides ?? []).map((side) => side.close())));

    async function viaStdio(side: StdioFuzzTarget, bytes: Buffer): Promise<void> {
      const p = Buffer.from(bytes.map((b) => (b === 10 ? 32 : b))); // one line
      const exp = expected(p, side.batches, true);
      const from = side.out.length;
      const errFrom = side.srv.stderr.length;
      side.srv.child.stdin!.write(Buffer.concat([p, NL]));
      const answered = () => side.messages(from).some((m) => !isServerNotification(m));
      if (exp.answers) await side.until(answered, `answer to ${show(p)}`);
      // Then a ping: its answer marks the end of what this line produced.
      const sentinel = `sentinel-${++side.sentinels}`;
      side.srv.send({ jsonrpc: '2.0', id: sentinel, method: 'ping' });
      await side.until(
        () => side.out.includes(`{"jsonrpc":"2.0","id":"${sentinel}","result":{}}\n`, from),
        `answer to ping ${sentinel} after ${show(p)}`,
      );
      const messages = side.messages(from).filter((m) => (m as { id?: unknown }).id !== sentinel);
      verify(p, exp, side.out.slice(from), messages, [], `stdio (${side.version})`);
      await new Promise(setImmediate); // stderr travels on its own pipe
      const err = side.srv.stderr.slice(errFrom);
      if (side.srv.child.exitCode !== null || CRASH.test(err))
        throw new Error(
          `stdio (${side.version}): crashed or logged an unhandled error after ${show(p)}:\n${err.slice(-2000)}`,
        );
    }

    it(
      `answers ${STDIO_RUNS} fuzzed lines as documented`,
      async () => {
        await fc.assert(
          fc.asyncProperty(payload, fc.boolean(), (p, legacy) => viaStdio(sides[legacy ? 1 : 0], p)),
          { seed: SEED, numRuns: STDIO_RUNS, interruptAfterTimeLimit: 150_000 * SCALE, markInterruptAsFailure: true },
        );
        for (const side of sides) {
          expect(side.srv.child.exitCode).toBeNull();
          expect(side.srv.stderr).not.toMatch(CRASH);
        }
      },
      180_000 * SCALE,
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
      await viaStdio(side, Buffer.from('{"jsonrpc":"2.0","id":"after","method":"ping"}'));
    });
  });
});

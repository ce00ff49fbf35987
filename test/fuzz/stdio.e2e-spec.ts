import * as fc from 'fast-check';
import { StdioFuzzTarget } from '../support/fuzz-stdio';
import { LIMIT, expected, isServerNotification, show } from '../support/fuzz-oracle';
import { payload } from '../support/fuzz-rpc';
import {
  CRASH,
  ENV,
  MESSAGES,
  NL,
  NORMAL_ANSWER,
  NORMAL_CALL,
  PROPERTY_MS,
  SEED,
  STDIO_GROUP,
  STDIO_LANES_PER_VERSION,
  STDIO_RUNS,
  count,
  seen,
  sent,
  sized,
  verify,
} from '../support/fuzz-harness';

/*
 * Property-based fuzzing with malformed JSON-RPC (generators and oracle in support/fuzz-rpc.ts, shared harness in
 * support/fuzz-harness.ts). For every line: nothing for a valid notification or response, else one well-formed
 * JSON-RPC response (an array per batch on 2025-03-26); no stack, path or token; the servers stay up, still answer
 * ping and a tool call, and log no unhandled error. At least 10,000 lines, counted as they are sent.
 */
describe('fuzz over stdio: malformed JSON-RPC never crashes, hangs, leaks or gets an undocumented answer', () => {
  afterAll(() => {
    if (process.env.FUZZ_STATS)
      console.log([`sent: stdio ${sent.stdio}`, ...[...seen].sort().map(([k, n]) => `${k}: ${n}`)].join('\n'));
  });

  /** Lanes: servers on the current revision, then servers on 2025-03-26 (the revision with JSON-RPC batches). */
  let sides: StdioFuzzTarget[];
  const lanes = (legacy: boolean) => sides.filter((side) => side.batches === legacy).slice(0, STDIO_LANES_PER_VERSION);

  beforeAll(async () => {
    sides = [
      ...Array.from({ length: STDIO_LANES_PER_VERSION }, () => new StdioFuzzTarget('2025-11-25', false, ENV)),
      ...Array.from({ length: STDIO_LANES_PER_VERSION }, () => new StdioFuzzTarget('2025-03-26', true, ENV)),
    ];
    for (const result of await Promise.all(sides.map((side) => side.initialize())))
      expect(result).toMatchObject({ result: { protocolVersion: expect.stringMatching(/^2025-/) } });
  });
  afterAll(() => Promise.all((sides ?? []).map((side) => side.close())));

  /** `bytes` as one line: its newlines become spaces (copied only when it has any). */
  const oneLine = (bytes: Buffer) => {
    if (!bytes.includes(10)) return bytes;
    const line = Buffer.from(bytes);
    for (let at = line.indexOf(10); at !== -1; at = line.indexOf(10, at + 1)) line[at] = 32;
    return line;
  };

  /**
   * Sends one fuzzed line and, in the same write, a ping behind it whose answer marks the end of what the line
   * produced (lines are handled concurrently, so the line's own answer may still come after it: waited for too).
   */
  async function viaStdio(side: StdioFuzzTarget, bytes: Buffer, counted = true): Promise<void> {
    const p = oneLine(bytes);
    const exp = expected(p, side.batches, true);
    const from = side.lines.length;
    const errFrom = side.srv.stderr.length;
    const sentinel = side.nextSentinel();
    const isSentinel = (m: unknown) => (m as { id?: unknown }).id === sentinel;
    if (counted) sent.stdio++;
    side.srv.child.stdin!.write(
      Buffer.concat([p, NL, Buffer.from(`{"jsonrpc":"2.0","id":"${sentinel}","method":"ping"}\n`)]),
    );
    const fence = `{"jsonrpc":"2.0","id":"${sentinel}","result":{}}`;
    const fenced = () => side.printed(fence, from);
    const answered = () => side.messages(from).some((m) => !isServerNotification(m) && !isSentinel(m));
    await side.until(
      () => fenced() && (!exp.answers || answered()),
      () => `${exp.answers ? 'answer to' : 'answer to the ping after'} ${show(p)}`,
    );
    const messages = side.messages(from).filter((m) => !isSentinel(m));
    verify(p, exp, side.text(from), messages, [], `stdio (${side.version})`);
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
        const from = side.lines.length;
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
      const from = side.lines.length;
      side.srv.child.stdin!.write(Buffer.concat([bytes, NL]));
      await side.until(() => side.messages(from).length > 0, 'answer to a 1 MiB line');
      expect(side.messages(from)).toEqual([answer]);
    }
    await viaStdio(side, Buffer.from('{"jsonrpc":"2.0","id":"after","method":"ping"}'), false);
  });
});

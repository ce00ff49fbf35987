import { Expected, isServerNotification, leakIn, responseProblem, show } from './fuzz-oracle';

/*
 * What both fuzz suites (test/fuzz/) share: the scale, the limits they raise, the oracle for one answer and the
 * tallies of what was sent and seen. Generators and the message oracle are in fuzz-rpc.ts.
 */
/** Fixed for reproducibility; FUZZ_SEED and FUZZ_SCALE (a message multiplier) explore further by hand. */
export const SEED = Number(process.env.FUZZ_SEED ?? 20_251_125);
export const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
/** Messages each transport must get, at the least. */
export const MESSAGES = 10_000 * SCALE;
/** HTTP: bodies per property run, sent 16 at a time (a pool, not in waves) over two sessions. */
export const HTTP_GROUP = 50;
export const HTTP_IN_FLIGHT = 16;
export const HTTP_RUNS = Math.ceil(MESSAGES / HTTP_GROUP);
/**
 * stdio: lines per property run, spread over lanes (two servers per protocol revision). A lane is strictly
 * sequential, so every answer is attributed to its line: one write carries the fuzzed line and a ping behind it.
 */
export const STDIO_GROUP = 40;
export const STDIO_LANES_PER_VERSION = 2;
export const STDIO_RUNS = Math.ceil(MESSAGES / STDIO_GROUP);
/**
 * A time limit for each property, so a machine too slow for it fails with a clear message rather than a jest timeout.
 * Generous: a hang is caught by each answer's own bound, and a quiet machine needs about 100 s; 150 s was cut short
 * (197 of 200 runs) on this 2-core machine while another heavy process shared it.
 */
export const PROPERTY_MS = 300_000 * Math.max(1, SCALE);
/**
 * Raised so the fuzz reaches the handlers instead of the per-subject limits: calls (600 a minute), requests (3,000
 * a minute) and calls at once (16). The fuzz asserts that nothing it sent was rate limited.
 */
export const ENV = {
  MCP_RATE_LIMIT_PER_MINUTE: '1000000',
  MCP_REQUESTS_PER_MINUTE: '1000000',
  MCP_MAX_CONCURRENT_CALLS: '10000',
};
/**
 * Unhandled errors, and the last-resort handlers that catch what escaped the protocol layer (Nest's, the stdio loop's).
 */
export const CRASH = /unhandled|uncaught|ExceptionsHandler|stdio message failed/i;
export const NL = Buffer.from('\n');

/** A ping of exactly `n` bytes. */
export const PAD_HEAD = '{"jsonrpc":"2.0","id":"big","method":"ping","params":{"pad":"';
export const sized = (n: number) => Buffer.from(`${PAD_HEAD}${'x'.repeat(n - PAD_HEAD.length - 3)}"}}`);

/** JSON-RPC outcomes seen, by transport and code (FUZZ_STATS=1 prints them); one tally per suite file. */
export const seen = new Map<string, number>();
/** Fuzzed messages sent, by transport (the ping fences and sentinels between them are not counted). */
export const sent = { http: 0, stdio: 0 };
/** Responses per JSON-RPC error code seen on a transport, across all its runs. */
export const count = (transport: string, code: number | 'result') => seen.get(`${transport} ${code}`) ?? 0;
/** A normal tool call: the server still does real work after the fuzz. */
export const NORMAL_CALL = {
  jsonrpc: '2.0',
  id: 'alive-call',
  method: 'tools/call',
  params: { name: 'search_tickets', arguments: { query: 'vpn' } },
};
export const NORMAL_ANSWER = {
  jsonrpc: '2.0',
  id: 'alive-call',
  result: expect.objectContaining({
    content: [{ type: 'text', text: expect.stringContaining('"tickets":[{"id":"HD-') }],
  }),
};

/** Runs `work` over `items` with at most `width` at once; rejects with the first failure once all have settled. */
export async function pool<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
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

export function verify(
  p: Buffer,
  exp: Expected,
  raw: string,
  messages: unknown[],
  secrets: string[],
  where: string,
): unknown {
  const fail = (why: string): never => {
    throw new Error(`${where}: ${why}\n  sent ${show(p)}\n  got ${JSON.stringify(raw.slice(0, 700))}`);
  };
  const leak = leakIn(raw, () => p.toString('utf8'), secrets);
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
    if (exp.tooDeep && (a.error?.code !== -32600 || a.id !== null))
      fail('a message nested past the depth limit must get -32600 with id null');
    if (exp.requestId !== undefined && a.id !== exp.requestId)
      fail(`the answer's id ${JSON.stringify(a.id)} is not the request's`);
    if (a.id !== null && a.id !== exp.echo) fail(`the answer's id ${JSON.stringify(a.id)} was never sent`);
  }
  return a;
}

export function sseMessages(raw: string): unknown[] {
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

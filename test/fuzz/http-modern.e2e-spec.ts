import * as fc from 'fast-check';
import { RunningServer, startDeskHttp } from '../support/server-process';
import { MODERN_META } from '../support/modern-post';
import { leakIn, show } from '../support/fuzz-oracle';
import { payload } from '../support/fuzz-rpc';
import { FuzzHttpClient } from '../support/fuzz-http';
import { CRASH, ENV, SEED, pool, sseMessages } from '../support/fuzz-harness';

/** Bodies per run of the property, and runs: 3,000 stateless requests in all. */
const GROUP = 50;
const RUNS = 60;
/**
 * Statuses a 2026-07-28 answer may have (docs/limits-and-errors.md, "How errors reach the client"), and Node's
 * 431 for headers over its limit (a fuzzed name mirrored into Mcp-Name can be kilobytes); anything else is a
 * defect.
 */
const STATUSES = new Set([200, 202, 400, 403, 404, 413, 431]);
const CODES = new Set([-32700, -32600, -32601, -32602, -32001, -32020, -32021, -32022, -32005]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (id: unknown) =>
  (typeof id === 'string' && id.length <= 256) || (typeof id === 'number' && Number.isSafeInteger(id));

/** `_meta` shapes: the valid envelope, each field broken or missing, another revision, garbage. */
const meta = fc.oneof(
  { weight: 6, arbitrary: fc.constant<unknown>(MODERN_META) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(
      { ...MODERN_META, 'io.modelcontextprotocol/protocolVersion': '2025-11-25' },
      { ...MODERN_META, 'io.modelcontextprotocol/protocolVersion': 'x'.repeat(100) },
      { ...MODERN_META, 'io.modelcontextprotocol/clientCapabilities': [] },
      { ...MODERN_META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, sampling: {} } },
      { ...MODERN_META, 'io.modelcontextprotocol/clientInfo': 'me' },
      { ...MODERN_META, 'io.modelcontextprotocol/logLevel': 'loud' },
      { ...MODERN_META, 'io.modelcontextprotocol/logLevel': 'debug' },
      { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' },
    ),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);
/** Header variants: mirrored from the body, missing, or wrong. */
const headerMode = fc.constantFrom('mirror', 'mirror', 'mirror', 'none', 'wrong', 'base64');

/**
 * Property-based fuzzing of the 2026-07-28 era over Streamable HTTP: the same malformed JSON-RPC as the 2025 fuzz,
 * each object given a fuzzed per-request `_meta` and the mirrored headers (right, missing or wrong), no session.
 * Every answer arrives, has a documented status and JSON-RPC error code, echoes a readable request id, leaks nothing;
 * the server stays up and logs no unhandled error.
 */
describe('fuzz over Streamable HTTP, 2026-07-28: fuzzed _meta and headers get documented answers only', () => {
  let server: RunningServer;
  let client: FuzzHttpClient;
  /** Outcomes seen: `result`, or the JSON-RPC error code. */
  const tally = new Map<string, number>();
  const saw = (k: string) => tally.set(k, (tally.get(k) ?? 0) + 1);

  beforeAll(async () => {
    server = await startDeskHttp(ENV);
    client = new FuzzHttpClient(server.url);
  });
  afterAll(() => (client?.close(), server.stop()));

  async function one([bytes, m, mode]: [Buffer, unknown, string]): Promise<void> {
    let body: unknown;
    let text = bytes.toString('utf8');
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (isObject(body)) {
      body.params = { ...(isObject(body.params) ? body.params : {}), _meta: m };
      try {
        text = JSON.stringify(body);
      } catch {
        // Nested deeper than JSON.stringify goes (the parser's depth): sent as generated, without the envelope.
        body = undefined;
      }
    }
    const method = isObject(body) && typeof body.method === 'string' ? body.method : undefined;
    const params = isObject(body) && isObject(body.params) ? body.params : {};
    const name =
      typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
    const headers: Record<string, string> = {
      authorization: `Bearer ${server.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
    };
    const ascii = (v: string) => /^[\x21-\x7e]{1,200}$/.test(v);
    // A client mirrors the revision it put in _meta into MCP-Protocol-Version.
    const version = isObject(m) ? m['io.modelcontextprotocol/protocolVersion'] : undefined;
    if (mode !== 'wrong' && typeof version === 'string' && ascii(version)) headers['mcp-protocol-version'] = version;
    if (mode !== 'none' && method !== undefined && ascii(method))
      headers['mcp-method'] = mode === 'wrong' ? `${method}x` : method;
    if (mode !== 'none' && name !== undefined) {
      if (mode === 'base64' || !ascii(name)) headers['mcp-name'] = `=?base64?${Buffer.from(name).toString('base64')}?=`;
      else headers['mcp-name'] = mode === 'wrong' ? `${name}x` : name;
    }
    const res = await client.post(text, headers);
    const raw = res.text;
    // Built only for a failure message: the body may be 1 MiB.
    const where = () =>
      `HTTP ${res.status}\n  sent ${show(Buffer.from(text))}\n  headers ${JSON.stringify(headers).slice(0, 600)}\n  got ${JSON.stringify(raw.slice(0, 500))}`;
    if (!STATUSES.has(res.status)) throw new Error(`undocumented status: ${where()}`);
    const leak = leakIn(raw, text, [server.token!]);
    if (leak) throw new Error(`the answer leaks ${leak}: ${where()}`);
    if (res.status === 431) return; // refused by Node before the platform saw it
    if (res.status === 202) {
      if (raw !== '') throw new Error(`202 with a body: ${where()}`);
      return;
    }
    const sse = res.type?.startsWith('text/event-stream') ?? false;
    const messages = sse ? sseMessages(raw) : [JSON.parse(raw)];
    const answer = messages[messages.length - 1] as Record<string, any>;
    if (Array.isArray(answer)) return; // a batch reaches the 2025 path (refused there; that suite checks it)
    if (answer?.jsonrpc !== '2.0' || 'result' in answer === 'error' in answer)
      throw new Error(`not one JSON-RPC response: ${where()}`);
    if (answer.error && !CODES.has(answer.error.code)) throw new Error(`undocumented error code: ${where()}`);
    saw(answer.error ? String(answer.error.code) : 'result');
    if (answer.result && answer.result.resultType === undefined && method !== undefined)
      throw new Error(`a 2026-07-28 result without resultType: ${where()}`);
    if (isObject(body) && method !== undefined && isId(body.id) && answer.id !== body.id && answer.id !== null)
      throw new Error(`the answer does not echo the request id: ${where()}`);
  }

  it(`answers ${GROUP * RUNS} fuzzed stateless requests as documented, and stays up`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(payload, meta, headerMode), { minLength: GROUP, maxLength: GROUP }),
        async (cases) => {
          const errFrom = server.stderr().length;
          await pool(cases, 16, one);
          const err = server.stderr().slice(errFrom);
          if (server.process.exitCode !== null || CRASH.test(err))
            throw new Error(`the server crashed or logged an unhandled error:\n${err.slice(-2000)}`);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
    const alive = await fetch(server.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${server.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'server/discover',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'alive', method: 'server/discover', params: { _meta: MODERN_META } }),
    });
    expect(alive.status).toBe(200);
    // The fuzz reached the handlers (most fuzzed bodies are refused earlier, as they should be) and each of the
    // era's checks, not only the parser.
    expect(tally.get('result') ?? 0).toBeGreaterThan(50);
    expect([...tally.keys()]).toEqual(expect.arrayContaining(['-32602', '-32020', '-32022', '-32601']));
  }, 240_000);
});

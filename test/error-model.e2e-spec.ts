import { INestApplication } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { FailureKind, startLimitsApp } from './fixtures/limits-fixture.module';
import { openSession, post } from './support/raw-mcp-http';
import { rpcError } from './support/rpc-error';

/**
 * The error model over real HTTP: what a client sees for each value a tool throws, the HTTP status of
 * every JSON-RPC error under both status profiles, and the X-Request-Id correlation id.
 */
const V = '2025-11-25';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Fragments of the messages the fixture throws that must never reach a client. */
const LEAKS = /hunter2|secret\.ts|\/srv|10\.0\.0\.5|redis|token expired|only admins|slow down/;

/** Thrown values a tool's caller (the model) can act on: a result with isError, HTTP 200 in both profiles. */
const ACTIONABLE: [FailureKind, string][] = [
  ['tool_execution', 'Ticket HD-7 is already closed; reopen it first.'],
  ['resource_not_found', 'Ticket HD-404 does not exist'],
  ['conflict', 'Ticket HD-7 was changed concurrently; read it again'],
  ['upstream_unavailable', 'The CRM did not answer; try again in a minute'],
  ['nest_not_found', 'Ticket HD-9 not found'],
  ['nest_bad_request', 'title must be a string; priority must be one of low, high'],
  ['nest_conflict', 'Ticket HD-7 is locked by another agent'],
];

/** Thrown values that become JSON-RPC errors: [kind, code, message, error.data besides requestId, corporate, spec]. */
const PROTOCOL: [FailureKind, number, string, Record<string, unknown>, number, number][] = [
  ['rate_limited', -32003, 'Rate limited: retry later', { reason: 'rate_limited', retryAfter: 7 }, 429, 429],
  ['timeout', -32004, 'Timeout: the call took too long', { reason: 'timeout' }, 504, 200],
  ['server_error', -32000, 'The search index is rebuilding', {}, 500, 200],
  [
    'invalid_params',
    -32602,
    'Invalid params: priority is not allowed here',
    { field: 'priority', reason: 'not_allowed' },
    400,
    200,
  ],
  ['mcp_conflict', -32007, 'Version mismatch', { reason: 'stale_version' }, 409, 200],
  ['mcp_upstream', -32006, 'Billing is down', {}, 503, 503],
  ['mcp_not_found', -32002, 'No such thing', {}, 400, 200], // 404 would tell the client its session expired
  ['nest_unavailable', -32006, 'Upstream unavailable', {}, 503, 503],
  ['nest_gateway_timeout', -32004, 'Timeout', {}, 504, 200],
  ['nest_forbidden', -32001, 'Forbidden', {}, 403, 403],
  ['nest_unauthorized', -32001, 'Forbidden', {}, 403, 403],
  ['nest_too_many', -32003, 'Rate limited', { reason: 'rate_limited', retryAfter: 1 }, 429, 429],
  ['plain_error', -32603, 'Internal error', {}, 500, 200],
  ['thrown_string', -32603, 'Internal error', {}, 500, 200],
];

type Profile = 'corporate' | 'spec';
const apps: Record<Profile, { app: INestApplication; url: string; sid: string }> = {} as never;

beforeAll(async () => {
  for (const profile of ['corporate', 'spec'] as const) {
    // spec is the default: its app sets no profile at all.
    const { app, url } = await startLimitsApp({
      ...(profile === 'corporate' ? { httpStatusProfile: 'corporate' } : {}),
      maxRequestBytes: 4096,
      limits: { toolTimeoutMs: 300 },
    });
    apps[profile] = { app, url, sid: await openSession(url, V) };
  }
});
afterAll(async () => {
  for (const { app } of Object.values(apps)) await app.close();
});

let nextId = 1;
/** POSTs `body` (a request object or raw text) in the profile's session. */
async function send(
  profile: Profile,
  body: unknown,
  headers: Record<string, string> = {},
  sessionId = apps[profile].sid,
) {
  const res = await post(apps[profile].url, body, { sessionId, protocolVersion: V, headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: JSON.parse(text) as Record<string, any> };
}
const request = (method: string, params: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id: nextId++,
  method,
  params,
});
const failWith = (kind: FailureKind) => request('tools/call', { name: 'fail_with', arguments: { kind } });

describe.each(['corporate', 'spec'] as const)('what a tool throws, under the %s profile', (profile) => {
  it.each(ACTIONABLE)('%s becomes an isError result the model can read (HTTP 200)', async (kind, text) => {
    const r = await send(profile, failWith(kind));
    expect(r.status).toBe(200);
    expect(r.json.result).toEqual({ content: [{ type: 'text', text }], isError: true });
    expect(r.json.error).toBeUndefined();
  });

  it.each(PROTOCOL)(
    '%s becomes JSON-RPC %i "%s", carrying the request id and nothing secret',
    async (kind, code, message, data, corporate, spec) => {
      const r = await send(profile, failWith(kind));
      expect(r.status).toBe(profile === 'corporate' ? corporate : spec);
      expect(r.headers.get('content-type')).toBe('application/json');
      const requestId = r.headers.get('x-request-id');
      expect(requestId).toMatch(UUID);
      expect(r.json).toEqual({
        jsonrpc: '2.0',
        id: expect.any(Number),
        error: { code, message, data: { ...data, requestId } },
      });
      expect(r.text).not.toMatch(LEAKS);
      if (kind === 'rate_limited') expect(r.headers.get('retry-after')).toBe('7');
      if (kind === 'nest_too_many') expect(r.headers.get('retry-after')).toBe('1');
    },
  );

  it('the official 1.x client sees an actionable error as isError and a protocol error as a rejection with its code', async () => {
    const client = new Client({ name: 'error-model-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(apps[profile].url)));
    const result = await client.callTool({ name: 'fail_with', arguments: { kind: 'conflict' } });
    expect(result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'Ticket HD-7 was changed concurrently; read it again' }],
    });
    const error = await rpcError(client.callTool({ name: 'fail_with', arguments: { kind: 'mcp_conflict' } }));
    expect(error).toMatchObject({ code: -32007, message: expect.stringContaining('Version mismatch') });
    if (profile === 'corporate') expect(error.status).toBe(409);
    const internal = await rpcError(client.callTool({ name: 'fail_with', arguments: { kind: 'plain_error' } }));
    expect(internal.code).toBe(-32603);
    expect(JSON.stringify(internal)).not.toMatch(LEAKS);
    await client.close();
  });
});

/** Errors that do not come from a tool: [what, body, code, corporate, spec]. */
const OTHER: [string, () => unknown, number, number, number][] = [
  ['an unknown tool', () => request('tools/call', { name: 'no_such_tool' }), -32602, 400, 200],
  ['an unknown method (in a session: 400, never 404)', () => request('no/such/method'), -32601, 400, 200],
  ['a method of a capability the server lacks', () => request('prompts/list'), -32601, 400, 200],
  ['a real tool timeout', () => request('tools/call', { name: 'sleep', arguments: { ms: 2000 } }), -32004, 504, 200],
  ['a body over maxRequestBytes', () => request('ping', { pad: 'x'.repeat(5000) }), -32005, 413, 413],
  ['malformed JSON', () => '{"jsonrpc":"2.0","id":1,"method":', -32700, 400, 400],
  ['a message that is not JSON-RPC', () => ({ jsonrpc: '2.0', id: 'x' }), -32600, 400, 400],
];

describe.each(['corporate', 'spec'] as const)('HTTP statuses of other errors, under the %s profile', (profile) => {
  it.each(OTHER)('%s', async (_what, body, code, corporate, spec) => {
    const r = await send(profile, body());
    expect(r.status).toBe(profile === 'corporate' ? corporate : spec);
    expect(r.json.error.code).toBe(code);
    expect(r.json.error.data.requestId).toBe(r.headers.get('x-request-id'));
  });

  it('an unknown session is 404 (initialize again) with -32600, and a missing one 400', async () => {
    const unknown = await send(profile, request('ping'), {}, 'no-such-session');
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toMatchObject({
      code: -32600,
      data: { requestId: unknown.headers.get('x-request-id') },
    });
    const res = await post(apps[profile].url, request('ping'), { protocolVersion: V });
    expect(res.status).toBe(400);
    const missing = (await res.json()) as { error: { code: number; data: { requestId: string } } };
    expect(missing.error).toMatchObject({ code: -32600, data: { requestId: res.headers.get('x-request-id') } });
  });

  it('a successful answer is 200 and still carries X-Request-Id', async () => {
    const r = await send(profile, request('ping'));
    expect(r.status).toBe(200);
    expect(r.json.result).toEqual({});
    expect(r.headers.get('x-request-id')).toMatch(UUID);
  });
});

describe('X-Request-Id', () => {
  it.each([
    ['abc-123', 'abc-123'],
    ['trace.7:span_9-A', 'trace.7:span_9-A'],
    ['128 characters', 'r'.repeat(128)],
  ])('a safe caller id (%s) is echoed in the header and error.data.requestId', async (_label, given) => {
    const r = await send('corporate', failWith('plain_error'), { 'x-request-id': given });
    expect(r.headers.get('x-request-id')).toBe(given);
    expect(r.json.error.data.requestId).toBe(given);
    const ok = await send('corporate', request('ping'), { 'x-request-id': given });
    expect(ok.headers.get('x-request-id')).toBe(given);
  });

  it.each([
    ['with spaces', 'with spaces'],
    ['300 characters', 'x'.repeat(300)],
    ['129 characters', 'r'.repeat(129)],
    ['semi;colon', 'semi;colon'],
    ['<script>', '<script>'],
    ['a/b', 'a/b'],
  ])('an unsafe caller id (%s) is replaced by a fresh UUID', async (_label, given) => {
    const r = await send('corporate', failWith('plain_error'), { 'x-request-id': given });
    const id = r.headers.get('x-request-id');
    expect(id).toMatch(UUID);
    expect(r.json.error.data.requestId).toBe(id);
    expect(r.text).not.toContain(given.slice(0, 20));
  });

  it('each request without one gets its own id', async () => {
    const a = await send('spec', failWith('timeout'));
    const b = await send('spec', failWith('timeout'));
    expect(a.json.error.data.requestId).not.toBe(b.json.error.data.requestId);
  });
});

import { INestApplication, Type } from '@nestjs/common';
import { SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import type { NodeSDK } from '@opentelemetry/sdk-node';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startMcpTelemetry } from '@app/mcp/telemetry';
import { createMcpHttpApp } from '@app/mcp';
import { TestIssuer } from '../support/test-issuer';
import { MODERN_META, modernPost } from '../support/modern-post';
import { mcpPost } from '../support/mcp-post';

const HEADER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const HEADER_SPAN = '00f067aa0ba902b7';
const META_TRACE = '0af7651916cd43dd8448eb211c80319c';
const META_SPAN = 'b7ad6b7169203331';
const SECRET_QUERY = 'planted-argument-value-9931';
const MODERN_TRACE = 'aaaabbbbccccddddeeeeffff00001111';
const MODERN_SPAN = '1122334455667788';
const BATCH_TRACE = '99998888777766665555444433332222';
const BATCH_SPAN = '8877665544332211';

/**
 * Real spans from the desk, booted in this process with the OpenTelemetry Node SDK and an
 * in-memory exporter, driven over real HTTP by the official SDK client.
 */
describe('OpenTelemetry tracing', () => {
  const exporter = new InMemorySpanExporter();
  let sdk: NodeSDK | undefined;
  let issuer: TestIssuer;
  let app: INestApplication;
  let client: Client;

  beforeAll(async () => {
    sdk = startMcpTelemetry({
      serviceName: 'desk-test',
      serviceVersion: '0.1.0',
      spanProcessors: [new SimpleSpanProcessor({ exporter })],
    });
    issuer = await TestIssuer.start();
    // Restored in afterAll: jest runs other suites in this worker process after this one.
    Object.assign(process.env, issuer.env(), { LOG_LEVEL: 'silent', MCP_METRICS_PORT: 'false' });
    // Loaded only now: McpModule.forRoot reads the auth settings from the environment at import time.
    const { AppModule } = require('../fixtures/desk/src/app.module') as { AppModule: Type<unknown> };
    app = await createMcpHttpApp(AppModule, { logger: false });
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as { port: number };
    client = new Client({ name: 'tracing-e2e', version: '1.0.0' });
    const headers = {
      authorization: `Bearer ${await issuer.mint()}`,
      traceparent: `00-${HEADER_TRACE}-${HEADER_SPAN}-01`,
      'x-request-id': 'trace-req-1',
    };
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), { requestInit: { headers } }),
    );
    exporter.reset();
    await client.callTool({ name: 'search_tickets', arguments: { query: SECRET_QUERY } });
    await client.callTool({
      name: 'search_tickets',
      arguments: { query: 'vpn' },
      _meta: { traceparent: `00-${META_TRACE}-${META_SPAN}-01` },
    });
    await client.callTool({ name: 'get_ticket', arguments: { id: 'HD-999999' } });
    // A stateless 2026-07-28 request: the trace keys travel in its per-request _meta (SEP-414).
    const modern = await modernPost(
      `http://127.0.0.1:${port}/mcp`,
      'tools/call',
      { name: 'get_ticket', arguments: { id: 'HD-2' } },
      {
        token: await issuer.mint(),
        headers: { traceparent: `00-${HEADER_TRACE}-${HEADER_SPAN}-01`, 'x-request-id': 'trace-req-1' },
        meta: {
          ...MODERN_META,
          traceparent: `00-${MODERN_TRACE}-${MODERN_SPAN}-01`,
          tracestate: 'vendor=abc',
          baggage: 'user=mallory',
        },
      },
    );
    if (modern.status !== 200) throw new Error(`2026-07-28 call answered ${modern.status}`);
    // A JSON-RPC batch (2025-03-26 sessions only): its requests are children of the POST's span.
    const old = { 'mcp-protocol-version': '2025-03-26', traceparent: `00-${BATCH_TRACE}-${BATCH_SPAN}-01` };
    const token = await issuer.mint();
    const init = await mcpPost(
      `http://127.0.0.1:${port}/mcp`,
      {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'batch', version: '1' } },
      },
      token,
      old,
    );
    const session = { ...old, 'mcp-session-id': init.headers.get('mcp-session-id')! };
    await mcpPost(
      `http://127.0.0.1:${port}/mcp`,
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      token,
      session,
    );
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    ];
    const answered = await mcpPost(`http://127.0.0.1:${port}/mcp`, batch, token, session);
    if (answered.status !== 200) throw new Error(`batch answered ${answered.status}`);
  });
  const savedEnv = { ...process.env };
  afterAll(async () => {
    await client?.close();
    await app?.close();
    await issuer?.close();
    await sdk?.shutdown();
    // Unregister the SDK's globals, so later suites in this worker boot without tracing.
    trace.disable();
    context.disable();
    propagation.disable();
    for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
    Object.assign(process.env, savedEnv);
  });

  const spans = () => exporter.getFinishedSpans();
  const named = (name: string) => spans().filter((s) => s.name === name);

  it('makes one SERVER span per HTTP request, continuing the traceparent header', () => {
    const http = spans().filter(
      (s) => s.attributes['http.request.method'] === 'POST' && s.spanContext().traceId === HEADER_TRACE,
    );
    expect(http.length).toBeGreaterThanOrEqual(4); // initialize, the initialized notification, two calls
    for (const s of http) {
      expect(s.kind).toBe(SpanKind.SERVER);
      expect(s.parentSpanContext?.spanId).toBe(HEADER_SPAN);
      expect(s.attributes).toMatchObject({ 'url.path': '/mcp', 'request.id': 'trace-req-1' });
      expect([200, 202]).toContain(s.attributes['http.response.status_code']);
    }
    // A POST that carries no request (the notification) keeps the HTTP name.
    expect(named('POST /mcp').some((s) => s.spanContext().traceId === HEADER_TRACE)).toBe(true);
  });

  it('gives a POST of one MCP request one span: the HTTP span, named and attributed per the MCP conventions', () => {
    const [call] = named('tools/call search_tickets').filter((s) => s.spanContext().traceId === HEADER_TRACE);
    expect(call).toBeDefined();
    expect(call.kind).toBe(SpanKind.SERVER);
    expect(call.parentSpanContext?.spanId).toBe(HEADER_SPAN);
    expect(call.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'search_tickets',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.session.id': expect.any(String),
      'mcp.protocol.version': '2025-11-25',
      'jsonrpc.request.id': expect.any(String),
      'request.id': 'trace-req-1',
      'network.transport': 'tcp',
      'http.request.method': 'POST',
      'http.response.status_code': 200,
    });
    expect(call.status.code).not.toBe(SpanStatusCode.ERROR);
  });

  it("makes a batch's requests children of the POST's span", () => {
    const [ping] = named('ping').filter((s) => s.spanContext().traceId === BATCH_TRACE);
    const [list] = named('tools/list').filter((s) => s.spanContext().traceId === BATCH_TRACE);
    const post = spans().find((s) => s.spanContext().spanId === ping?.parentSpanContext?.spanId);
    expect(post?.name).toBe('POST /mcp');
    expect(post?.parentSpanContext?.spanId).toBe(BATCH_SPAN);
    expect(list?.parentSpanContext?.spanId).toBe(post?.spanContext().spanId);
    for (const child of [ping, list]) expect(child.attributes['http.request.method']).toBeUndefined();
  });

  it("keeps the MCP span active while the tool runs: the tool's own spans are its children, with no span between", () => {
    const [call] = named('tools/call search_tickets').filter((s) => s.spanContext().traceId === HEADER_TRACE);
    const own = named('tickets.search').find((s) => s.spanContext().traceId === HEADER_TRACE);
    expect(own).toBeDefined();
    expect(own!.parentSpanContext?.spanId).toBe(call.spanContext().spanId);
    expect(call.attributes['gen_ai.tool.call.id']).toBe(call.attributes['jsonrpc.request.id']);
    // One span of ours per call: the interceptor's execute_tool span is gone, the HTTP span is the MCP span.
    expect(spans().filter((s) => s.name.startsWith('execute_tool'))).toHaveLength(0);
  });

  it('takes the parent from params._meta.traceparent when the client sends one, linking the HTTP span', () => {
    const [call] = named('tools/call search_tickets').filter((s) => s.spanContext().traceId === META_TRACE);
    expect(call).toBeDefined();
    expect(call.parentSpanContext?.spanId).toBe(META_SPAN);
    expect(call.links).toHaveLength(1);
    expect(call.links[0].context.traceId).toBe(HEADER_TRACE);
  });

  it('continues the traceparent and tracestate in the _meta of a 2026-07-28 request (baggage is not taken over)', () => {
    const [call] = named('tools/call get_ticket').filter((s) => s.spanContext().traceId === MODERN_TRACE);
    expect(call).toBeDefined();
    expect(call.parentSpanContext?.spanId).toBe(MODERN_SPAN);
    expect(call.spanContext().traceState?.get('vendor')).toBe('abc');
    expect(call.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'mcp.protocol.version': '2026-07-28' });
    expect(call.attributes['mcp.session.id']).toBeUndefined();
    expect(JSON.stringify(spans().map((s) => s.attributes))).not.toContain('mallory');
  });

  it('records the outcome of a failed call', () => {
    const [failed] = named('tools/call get_ticket');
    expect(failed.status.code).toBe(SpanStatusCode.ERROR);
    expect(failed.attributes['error.type']).toMatch(/^(tool_error|resource_not_found)$/);
  });

  it('puts no argument values and no token into any span', () => {
    const text = JSON.stringify(spans().map((s) => ({ name: s.name, attributes: s.attributes, events: s.events })));
    expect(text).not.toContain(SECRET_QUERY);
    expect(text).not.toMatch(/Bearer|eyJ/);
  });
});

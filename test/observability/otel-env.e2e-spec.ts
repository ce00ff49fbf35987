import { mcpPost, openMcpSession } from '../support/mcp-post';
import { RunningServer, startDeskHttp } from '../support/server-process';
import { waitFor } from '../support/wait';

/** The built server's tracing is configured by the standard OTEL_* variables (here: the console exporter). */
describe('OpenTelemetry configured from OTEL_* in the built server', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startDeskHttp({
      OTEL_TRACES_EXPORTER: 'console',
      OTEL_BSP_SCHEDULE_DELAY: '50',
      OTEL_SERVICE_NAME: 'desk-otel-e2e',
    });
    const session = await openMcpSession(server.url, server.token);
    await mcpPost(
      server.url,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'search_tickets', arguments: { query: 'printer' } },
      },
      server.token,
      {
        'mcp-session-id': session,
        traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      },
    );
  });
  afterAll(() => server.stop());

  it("exports the call's span (its HTTP request's) and the tool's own span with the configured service name and the caller's trace id", async () => {
    await waitFor(
      () => /name: 'tools\/call search_tickets'/.test(server.stdout!()),
      5_000,
      "the call's span (the last of the call to end, with its response) on stdout",
    );
    const out = server.stdout!();
    expect(out).toMatch(/name: 'tickets.search'/);
    expect(out).toMatch(/name: 'tools\/call search_tickets'/);
    expect(out).toMatch(/name: 'POST \/mcp'/); // the session's initialized notification carries no request
    expect(out).toContain("'http.request.method': 'POST'");
    expect(out).toContain("'service.name': 'desk-otel-e2e'");
    expect(out).toContain("'service.version': '0.1.0'");
    expect(out).toContain("traceId: '4bf92f3577b34da6a3ce929d0e0e4736'");
    expect(out).not.toContain('printer');
  });
});

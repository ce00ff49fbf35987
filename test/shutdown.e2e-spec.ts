import { RunningServer, startDeskHttp } from './support/server-process';
import { mcpPost } from './support/mcp-post';

const exportCall = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'export_tickets', arguments: {} },
});

async function openSession(server: RunningServer): Promise<string> {
  const res = await mcpPost(
    server.url,
    {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'shutdown', version: '1' } },
    },
    server.token,
  );
  const session = res.headers.get('mcp-session-id')!;
  await mcpPost(server.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, server.token, {
    'mcp-session-id': session,
  });
  return session;
}
const exited = (server: RunningServer) =>
  new Promise<{ code: number | null; signal: string | null }>((ok) =>
    server.process.once('exit', (code, signal) => ok({ code, signal })),
  );

/** SIGTERM: new calls refused, calls in flight finish within the grace period, then a clean exit 0. */
describe('graceful shutdown', () => {
  it('lets a call in flight finish, refuses new calls with 503 / -32006, and exits 0', async () => {
    const server = await startDeskHttp({ MCP_SHUTDOWN_GRACE_MS: '5000' });
    const session = await openSession(server);
    const exit = exited(server);
    const running = mcpPost(server.url, exportCall(1), server.token, { 'mcp-session-id': session }).then((r) =>
      r.text(),
    );
    await new Promise((r) => setTimeout(r, 250));
    server.process.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 100));
    const refused = await mcpPost(server.url, exportCall(2), server.token, { 'mcp-session-id': session });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({ id: 2, error: { code: -32006, data: { reason: 'shutting_down' } } });
    const body = await running;
    expect(body).toContain('"id":1');
    expect(body).toContain('id,status,priority,category,title');
    expect(await exit).toEqual({ code: 0, signal: null });
    expect(server.stderr()).not.toMatch(/Unhandled|ERROR/);
    await server.stop(); // also closes the test issuer
  });

  it('aborts what is still running when the grace period ends, and still exits 0 promptly', async () => {
    const server = await startDeskHttp({ MCP_SHUTDOWN_GRACE_MS: '200' });
    const session = await openSession(server);
    const exit = exited(server);
    const running = mcpPost(server.url, exportCall(1), server.token, { 'mcp-session-id': session }).then(
      (r) => r.text(),
      () => 'connection closed',
    );
    await new Promise((r) => setTimeout(r, 150));
    const started = Date.now();
    server.process.kill('SIGTERM');
    expect(await exit).toEqual({ code: 0, signal: null });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await running).not.toContain('id,status,priority');
    await server.stop();
  });
});

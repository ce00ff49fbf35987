import { RunningServer, startDeskHttp } from './support/server-process';

/** The legacy HTTP+SSE transport is off unless switched on. */
describe('legacy HTTP+SSE transport, default configuration', () => {
  let server: RunningServer;

  beforeAll(async () => {
    const env: Record<string, string> = {};
    // The default must hold even when the test runner's own environment switches it on.
    if (process.env.MCP_LEGACY_SSE !== undefined) env.MCP_LEGACY_SSE = '';
    server = await startDeskHttp(env);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('is off: GET /sse and POST /messages are 404', async () => {
    const base = new URL(server.url).origin;
    // No token: the auth guard sits on the MCP routes only, so an unregistered path is 404, not 401.
    expect((await fetch(`${base}/sse`, { headers: { accept: 'text/event-stream' } })).status).toBe(404);
    const post = await fetch(`${base}/messages?sessionId=x`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(post.status).toBe(404);
  });
});

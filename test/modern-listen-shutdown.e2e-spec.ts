import { RunningServer, startDeskHttp } from './support/server-process';
import { MODERN_META, followSse } from './support/modern-post';
import { waitFor } from './support/wait';

/**
 * A subscriptions/listen stream when the server shuts down (SIGTERM): the server ends it gracefully, answering the
 * listen request with a result before the stream closes, so the client knows to re-listen elsewhere.
 */
describe('subscriptions/listen on shutdown', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startDeskHttp({ MCP_SHUTDOWN_GRACE_MS: '500' });
  });
  afterAll(() => server?.stop());

  it('answers the open listen request with a result, then ends the stream', async () => {
    const res = await fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${server.token}`,
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'subscriptions/listen',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 77,
        method: 'subscriptions/listen',
        params: { _meta: MODERN_META, notifications: { toolsListChanged: true } },
      }),
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const { frames, done } = followSse(res);
    await waitFor(() => frames.length === 1, 5_000, 'the acknowledgement');
    expect(frames[0]).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { toolsListChanged: true } },
    });
    server.process.kill('SIGTERM');
    await done;
    expect(frames.at(-1)).toEqual({
      jsonrpc: '2.0',
      id: 77,
      result: expect.objectContaining({
        resultType: 'complete',
        _meta: expect.objectContaining({ 'io.modelcontextprotocol/subscriptionId': 77 }),
      }),
    });
  });
});

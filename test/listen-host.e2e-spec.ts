import { DESK_MAIN, startDeskHttp, startHttpServer } from './support/server-process';

/**
 * Where a started server listens, through a real process: authentication disabled never serves a host that is not
 * loopback (the start stops in one line, exit 1, as the development issuer's does), and the start line names the
 * address actually bound.
 */
describe('the host a server listens on', () => {
  const unauthenticated = { NODE_ENV: 'development', MCP_AUTH_DISABLED: 'true', MCP_JWKS_URI: '' };

  it('refuses to start with authentication disabled on a host that is not loopback: one line, exit 1', async () => {
    for (const host of ['0.0.0.0', '::']) {
      const failed = await startHttpServer(DESK_MAIN, { ...unauthenticated, HOST: host }).then(
        async (server) => (await server.stop(), 'started'),
        (e: Error) => e.message,
      );
      const lines = failed.split('\n').filter((line) => line.trim() !== '');
      expect({ host, lines }).toEqual({
        host,
        lines: [
          'server exited with 1:',
          expect.stringMatching(
            new RegExp(
              `^MCP server failed to start: McpModule auth: authentication is disabled and HOST=${host.replace(/\./g, '\\.')} is not loopback; set HOST=127\\.0\\.0\\.1`,
            ),
          ),
        ],
      });
    }
  });

  it('starts with authentication disabled on a loopback host', async () => {
    const server = await startHttpServer(DESK_MAIN, { ...unauthenticated, HOST: '127.0.0.1' });
    await server.stop();
    expect(server.stderr()).toMatch(/desk MCP server listening on http:\/\/127\.0\.0\.1:\d+\/mcp/);
  });

  it('names the address it is bound to on its start line: 0.0.0.0 for every interface, not 127.0.0.1', async () => {
    // Authentication on (the suite's test issuer): any interface may be served.
    const server = await startDeskHttp({ HOST: '0.0.0.0' });
    try {
      expect(server.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/mcp$/);
      // It answers on loopback too, as the address says.
      const port = new URL(server.url).port;
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MINIMAL_MAIN, RunningServer, startHttpServer } from './support/server-process';
import { serverEnv } from './support/stdio-clients';
import { TestIssuer } from './support/test-issuer';

/**
 * An app that imports nothing optional (no McpLoggerModule, no telemetry, no health indicators, no corporate
 * texts) boots through `bootstrapMcpServer` over HTTP and stdio and serves a call. Before, the logger lookup ended
 * the process at boot with Nest's "could not find McpLogger element".
 */

describe('an app without the optional modules', () => {
  let issuer: TestIssuer;
  let server: RunningServer;

  beforeAll(async () => {
    issuer = await TestIssuer.start();
    server = await startHttpServer(MINIMAL_MAIN, issuer.env());
  });
  afterAll(async () => {
    await server?.stop();
    await issuer?.close();
  });

  it('boots over HTTP on Nest’s own logger and answers a tool call', async () => {
    const client = new Client({ name: 'optional-modules', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { Authorization: `Bearer ${await issuer.mint()}` } },
      }),
    );
    try {
      expect(client.getServerVersion()?.name).toBe('minimal');
      const result = await client.callTool({ name: 'say_hello', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'hello' }]);
    } finally {
      await client.close();
    }
    expect(server.stderr()).not.toMatch(/UnknownElementException|could not find/);
    expect(server.stderr()).toContain('minimal MCP server listening on');
  });

  it('boots over stdio and answers a tool call', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MINIMAL_MAIN, '--stdio'],
      env: serverEnv(),
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: 'optional-modules', version: '1.0.0' });
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: 'say_hello', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'hello' }]);
    } finally {
      await client.close();
    }
    expect(stderr).not.toMatch(/UnknownElementException|could not find/);
  });
});

import { INestApplication, Logger, Module } from '@nestjs/common';
import { AbstractHttpAdapter } from '@nestjs/core';
import { McpModule } from '../../mcp.module';
import { McpHttpAdapter, createNestHttpApp } from '../../http-adapter/http-adapter';

@Module({ imports: [McpModule.forRoot({ name: 'entry', auth: { disabled: true } })] })
class AppModule {}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe.each<McpHttpAdapter>(['express', 'fastify'])('the MCP entry layer on %s', (adapter) => {
  let app: INestApplication;
  let url: string;

  beforeAll(async () => {
    app = await createNestHttpApp(AppModule, adapter, { logger: false });
    await app.listen(0, '127.0.0.1');
    url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  });
  afterAll(() => app.close());

  it("runs as the request hook: every answer carries its request id, the Origin guard's 403 too", async () => {
    const res = await fetch(`${url}/mcp`, {
      method: 'POST',
      body: INITIALIZE,
      headers: { ...HEADERS, origin: 'https://evil.example' },
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('refuses an MCP endpoint served under a prefix it does not know (a global prefix) instead of serving it unchecked', async () => {
    const prefixed = await createNestHttpApp(AppModule, adapter, { logger: false });
    prefixed.setGlobalPrefix('api');
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    try {
      await prefixed.listen(0, '127.0.0.1');
      const base = (await prefixed.getUrl()).replace('[::1]', '127.0.0.1');
      const res = await fetch(`${base}/api/mcp`, { method: 'POST', body: INITIALIZE, headers: HEADERS });
      expect(res.status).toBe(500);
      expect(error).toHaveBeenCalledWith(expect.stringContaining('a global prefix'));
    } finally {
      error.mockRestore();
      await prefixed.close();
    }
  });

  it('refuses an MCP request that did not pass it (the app replaced the request hook) instead of serving it unobserved; the Origin check holds without it', async () => {
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    (app.getHttpAdapter() as unknown as AbstractHttpAdapter).setOnRequestHook(
      (_req: unknown, _res: unknown, done: () => void) => done(),
    );
    try {
      // The Origin and Host checks are McpOriginGuard's, after routing: no request hook is needed for them.
      const foreign = await fetch(`${url}/mcp`, {
        method: 'POST',
        body: INITIALIZE,
        headers: { ...HEADERS, origin: 'https://evil.example' },
      });
      expect(foreign.status).toBe(403);
      const res = await fetch(`${url}/mcp`, { method: 'POST', body: INITIALIZE, headers: HEADERS });
      expect(res.status).toBe(500);
      expect(await res.json()).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32603, message: 'Internal error' },
      });
      expect(error).toHaveBeenCalledWith(expect.stringContaining("without passing the platform's entry checks"));
    } finally {
      error.mockRestore();
    }
  });
});

import { INestApplication, Type } from '@nestjs/common';
import { createMcpHttpApp } from '@app/mcp';

/**
 * Boots a fixture module as a real HTTP server on an ephemeral loopback port, on the adapter `MCP_HTTP_ADAPTER`
 * names (Express by default). Its audit lines go nowhere unless
 * the environment routes them (`MCP_AUDIT_LOG`, read at boot): they would otherwise land in the test output.
 */
export async function startInProcess(module: Type<unknown>): Promise<{ app: INestApplication; url: string }> {
  const before = process.env.MCP_AUDIT_LOG;
  process.env.MCP_AUDIT_LOG = before ?? '/dev/null';
  try {
    const app = await createMcpHttpApp(module, { logger: false });
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as { port: number };
    return { app, url: `http://127.0.0.1:${port}/mcp` };
  } finally {
    if (before === undefined) delete process.env.MCP_AUDIT_LOG;
  }
}

// Peer: the official SDK 1.x (`@modelcontextprotocol/sdk`), stateful Streamable HTTP as its docs and
// `simpleStreamableHttp.ts` example set it up: `createMcpExpressApp()` (Express with JSON body parsing and
// DNS-rebinding protection on loopback), an `McpServer` and a `StreamableHTTPServerTransport` per session
// (created on `initialize`, `sessionIdGenerator: randomUUID`), SSE answers to POSTs (the default).
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { Request, Response } from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { fail, listen, registerPeerTools } from './catalog';

function getServer(): McpServer {
  return registerPeerTools(new McpServer({ name: 'bench-peer-sdk-v1', version: '1.0.0' }));
}

const transports: Record<string, StreamableHTTPServerTransport> = {};
const app = createMcpExpressApp();

app.post('/mcp', async (req: Request, res: Response) => {
  const sessionId = req.headers['mcp-session-id'] as string | undefined;
  let transport: StreamableHTTPServerTransport;
  if (sessionId && transports[sessionId]) {
    transport = transports[sessionId];
  } else if (!sessionId && isInitializeRequest(req.body)) {
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        transports[id] = transport;
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) delete transports[transport.sessionId];
    };
    await getServer().connect(transport);
  } else {
    res.status(400).json({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Bad Request: No valid session ID provided' },
      id: null,
    });
    return;
  }
  await transport.handleRequest(req, res, req.body);
});

// GET (the standalone SSE stream) and DELETE (session end) on an existing session.
const sessionRequest = async (req: Request, res: Response) => {
  const sessionId = req.headers['mcp-session-id'] as string | undefined;
  if (!sessionId || !transports[sessionId]) {
    res.status(400).send('Invalid or missing session ID');
    return;
  }
  await transports[sessionId].handleRequest(req, res);
};
app.get('/mcp', sessionRequest);
app.delete('/mcp', sessionRequest);

// What `app.listen(port, '127.0.0.1')` does, on PORT (0 = ephemeral) with READY <port> for the bench.
const server = createServer(app);
listen(server, async () => {
  await Promise.all(Object.values(transports).map((t) => t.close()));
  await new Promise((ok) => server.close(ok));
}).catch(fail);

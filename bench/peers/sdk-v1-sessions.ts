// The official SDK 1.x's stateful Streamable HTTP routes, as its `simpleStreamableHttp.ts` example writes them: an
// `McpServer` and a `StreamableHTTPServerTransport` per session (created on `initialize`, `sessionIdGenerator:
// randomUUID`), SSE answers to POSTs (the default). Shared by the bare peer (sdk-v1.ts) and the one equipped for
// production (sdk-v1-prod.ts).
import { randomUUID } from 'node:crypto';
import type { Express, Request, Response } from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { registerPeerTools } from './catalog';

/** Mounts POST, GET and DELETE `/mcp` on `app` for servers named `name`; resolves `close()` for every session. */
export function mountSdkV1Sessions(app: Express, name: string): { close(): Promise<void> } {
  const transports: Record<string, StreamableHTTPServerTransport> = {};
  const getServer = () => registerPeerTools(new McpServer({ name, version: '1.0.0' }));

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

  return {
    close: async () => {
      await Promise.all(Object.values(transports).map((t) => t.close()));
    },
  };
}

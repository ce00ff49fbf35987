import { randomUUID } from 'node:crypto';
import { Server } from 'node:http';
import { AddressInfo } from 'node:net';
import express, { NextFunction, Request, Response } from 'express';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { IssuerKeyFile, serverIssuer } from './server-issuer';

/** Defects a team could leave in such a server, each breaking one §18 item. */
export interface PeerDefects {
  /** A 401 without `WWW-Authenticate`. */
  noChallenge?: boolean;
  /** A tool named in camelCase. */
  camelCaseTool?: boolean;
  /** Express's default error page (with the stack trace) for a body that is not JSON. */
  stackTrace?: boolean;
  /** `cors({ origin: '*' })` and no `Origin` check. */
  corsWildcard?: boolean;
  /** `X-Request-Id` is not returned. */
  noRequestId?: boolean;
}

/** A running {@link startSdkPeerServer}. */
export interface PeerServer {
  url: string;
  token: string;
  issuerKey: IssuerKeyFile;
  close(): Promise<void>;
}

const VERSION = '2.3.0';
const MAX_BODY = '64kb';

/** The MCP server of one session: two tools, the agent-routing prompts, three resources (official SDK 1.x). */
function mcpServer(d: PeerDefects): McpServer {
  const server = new McpServer({ name: 'peer', version: VERSION });
  server.registerTool(
    d.camelCaseTool ? 'getStatus' : 'get_status',
    {
      description: 'Returns the status of one service.',
      inputSchema: { service: z.string() },
      annotations: { readOnlyHint: true },
    },
    ({ service }) => ({ content: [{ type: 'text', text: `${service}: up` }] }),
  );
  server.registerTool(
    'restart_service',
    {
      description:
        'Restarts a service. Side effects: it is down for seconds. Risk: medium. Idempotency: none. ' +
        'Retry: after 30 s. Timeout: 60 s. Audit event: peer.restart. Approval: an operator confirms first.',
      inputSchema: { service: z.string() },
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    ({ service }) => ({ content: [{ type: 'text', text: `${service}: restarted` }] }),
  );
  for (const name of ['agent_brief', 'agent_prompt'])
    server.registerPrompt(name, { description: `The ${name} of this server.` }, () => ({
      messages: [{ role: 'user', content: { type: 'text', text: 'Route status questions here.' } }],
    }));
  const text = (uri: string, mimeType: string, body: string) => ({ contents: [{ uri, mimeType, text: body }] });
  server.registerResource('http-headers', 'use://http-headers', { mimeType: 'application/json' }, (u) =>
    text(u.href, 'application/json', '{"headers":[]}'),
  );
  server.registerResource('version', 'project://version', { mimeType: 'text/plain' }, (u) =>
    text(u.href, 'text/plain', VERSION),
  );
  server.registerResource('status', 'peer://status', { mimeType: 'application/json' }, (u) =>
    text(u.href, 'application/json', '{"services":[]}'),
  );
  return server;
}

/**
 * An MCP server written by a team with the official SDK 1.x on Express, following v1.2 of the standard (2025-11-25
 * sessions, JWT bearer tokens, explicit CORS, a 64 KiB body limit): a peer the compliance command must judge as
 * fairly as it judges the platform.
 */
export async function startSdkPeerServer(d: PeerDefects = {}): Promise<PeerServer> {
  const { issuerKey, verify, token } = await serverIssuer('peer');
  const app = express();
  app.use((req: Request, res: Response, next: NextFunction) => {
    const id = req.header('x-request-id');
    if (id && !d.noRequestId) res.setHeader('x-request-id', id);
    if (d.corsWildcard) res.setHeader('access-control-allow-origin', '*');
    else if (req.header('origin'))
      return void res
        .status(403)
        .json({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Forbidden origin' } });
    next();
  });
  app.get('/health', (_req, res) => void res.json({ status: 'ok', version: VERSION }));
  app.get(
    '/.well-known/oauth-protected-resource/mcp',
    (req, res) =>
      void res.json({ resource: `http://${req.headers.host}/mcp`, authorization_servers: [issuerKey.issuer] }),
  );
  app.use('/mcp', express.json({ limit: MAX_BODY }));
  app.use('/mcp', async (req: Request, res: Response, next: NextFunction) => {
    const bearer = /^Bearer (.+)$/.exec(req.header('authorization') ?? '')?.[1];
    const ok = bearer ? await verify(bearer) : false;
    if (ok) return next();
    if (!d.noChallenge) res.setHeader('www-authenticate', 'Bearer realm="peer", error="invalid_token"');
    res.status(401).json({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Unauthorized' } });
  });
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  app.post('/mcp', async (req: Request, res: Response) => {
    const id = req.header('mcp-session-id');
    let transport = id ? sessions.get(id) : undefined;
    if (!transport) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (sid) => void sessions.set(sid, transport!),
      });
      await mcpServer(d).connect(transport);
    }
    await transport.handleRequest(req, res, req.body);
  });
  if (!d.stackTrace)
    app.use((error: { status?: number; type?: string }, _req: Request, res: Response, _next: NextFunction) => {
      const tooLarge = error.type === 'entity.too.large';
      res.status(tooLarge ? 413 : 400).json({
        jsonrpc: '2.0',
        id: null,
        error: tooLarge
          ? { code: -32005, message: `Payload too large (limit ${MAX_BODY})` }
          : { code: -32700, message: 'Parse error' },
      });
    });
  const http: Server = await new Promise((ok) => {
    const s = app.listen(0, '127.0.0.1', () => ok(s));
  });
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    token: await token(),
    issuerKey,
    close: () => {
      http.closeAllConnections();
      return new Promise((ok) => http.close(() => ok()));
    },
  };
}

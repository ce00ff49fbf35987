// Peer: the official SDK 1.x equipped for production the way a team would, each part as its library documents it,
// to meet the same bar as our production configuration: the stateful server of sdk-v1.ts, behind the SDK's own
// `requireBearerAuth` with a `jose` JWKS verifier (RS256 JWTs of the bench's issuer: issuer, audience, expiry), every
// request logged by `pino-http` to a file (PEER_LOG_FILE), and the OpenTelemetry Node SDK with the http and express
// instrumentations exporting OTLP to the bench's sink (sdk-v1-prod.telemetry.ts, loaded first).
import { telemetry } from './sdk-v1-prod.telemetry';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { Request, Response } from 'express';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import pino from 'pino';
import { pinoHttp } from 'pino-http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { fail, listen, registerPeerTools } from './catalog';

const jwks = createRemoteJWKSet(new URL(process.env.PEER_JWKS_URI!));
const verifier = {
  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const { payload } = await jwtVerify(token, jwks, {
      issuer: process.env.PEER_JWT_ISSUER,
      audience: process.env.PEER_JWT_AUDIENCE,
    });
    return {
      token,
      clientId: String(payload.azp ?? payload.sub),
      scopes: typeof payload.scope === 'string' ? payload.scope.split(' ') : [],
      expiresAt: payload.exp,
    };
  },
};

function getServer(): McpServer {
  return registerPeerTools(new McpServer({ name: 'bench-peer-sdk-v1-prod', version: '1.0.0' }));
}

const transports: Record<string, StreamableHTTPServerTransport> = {};
const app = createMcpExpressApp();
app.use(pinoHttp({ logger: pino(pino.destination({ dest: process.env.PEER_LOG_FILE!, sync: false })) }));
app.use('/mcp', requireBearerAuth({ verifier }));

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

const server = createServer(app);
listen(server, async () => {
  await Promise.all(Object.values(transports).map((t) => t.close()));
  await new Promise((ok) => server.close(ok));
  await telemetry.shutdown();
}).catch(fail);

// Peer: the official SDK 1.x equipped for production the way a team would, each part as its library documents it,
// to meet the same bar as our production configuration: the stateful server of sdk-v1.ts, behind the SDK's own
// `requireBearerAuth` with a `jose` JWKS verifier (RS256 JWTs of the bench's issuer: issuer, audience, expiry), every
// request logged by `pino-http` to a file (PEER_LOG_FILE), and the OpenTelemetry Node SDK with the http and express
// instrumentations exporting OTLP to the bench's sink (sdk-v1-prod.telemetry.ts, loaded first).
import { telemetry } from './sdk-v1-prod.telemetry';
import { createServer } from 'node:http';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import pino from 'pino';
import { pinoHttp } from 'pino-http';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { fail, listen } from './catalog';
import { mountSdkV1Sessions } from './sdk-v1-sessions';

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

const app = createMcpExpressApp();
app.use(pinoHttp({ logger: pino(pino.destination({ dest: process.env.PEER_LOG_FILE!, sync: false })) }));
app.use('/mcp', requireBearerAuth({ verifier }));
const sessions = mountSdkV1Sessions(app, 'bench-peer-sdk-v1-prod');

const server = createServer(app);
listen(server, async () => {
  await sessions.close();
  await new Promise((ok) => server.close(ok));
  await telemetry.shutdown();
}).catch(fail);

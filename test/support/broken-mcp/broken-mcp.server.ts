import { randomUUID } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { IssuerKeyFile, serverIssuer } from '../server-issuer';
import { Defects } from './defects';
import { Answer, LEGACY, MODERN, Message, answer, modernHeaders } from './broken-mcp.methods';

export type { Defects } from './defects';

const TOKEN = 'good-token';
const MAX_BODY_BYTES = 64 * 1_024;

/** A running {@link startBrokenMcpServer}: its endpoint, an opaque token it takes, and its JWT issuer's key. */
export interface BrokenServer {
  url: string;
  token: string;
  /** What `--issuer-key` reads: the private key, issuer and audience of the JWTs the server also takes. */
  issuerKey: IssuerKeyFile;
  close: () => Promise<void>;
}

/**
 * A small MCP endpoint written without the platform (plain node:http; 2025-11-25 sessions and 2026-07-28 requests
 * on one endpoint; two tools, two prompts, three resources): correct by default, and broken on purpose per
 * `defects`, so each compliance check is seen to fail with its own evidence. Its folder's README would document a
 * 64 KiB request limit, a 60 s timeout and 100 calls per minute; it enforces only the first.
 */
export async function startBrokenMcpServer(defects: Defects = {}): Promise<BrokenServer> {
  const version = defects.badVersion ? 'v1' : '1.4.2';
  const { issuerKey, verify: jwtOk } = await serverIssuer('broken');
  // The JWT checks, each left out by its defect (two hours of clock tolerance take a token expired an hour ago).
  const verify = (token: string) =>
    jwtOk(token, {
      ...(defects.ignoresAudience ? {} : { audience: issuerKey.audience }),
      ...(defects.ignoresExpiry ? { clockTolerance: 7_200 } : {}),
    });
  const authorized = async (req: IncomingMessage) => {
    const query = new URL(req.url ?? '/', 'http://x').searchParams.get('access_token');
    const header = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const token = header ?? (defects.queryToken ? query : null);
    return token === TOKEN || (token ? await verify(token) : false);
  };
  let calls = 0;
  const server: Server = createServer((req, res) => {
    handle(req, res, defects, version, authorized, () => calls++).catch(() => res.destroy());
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    token: TOKEN,
    issuerKey,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  d: Defects,
  version: string,
  authorized: (req: IncomingMessage) => Promise<boolean>,
  count: () => number,
): Promise<void> {
  const requestId = req.headers['x-request-id'];
  const echo: Record<string, string> = {
    ...(typeof requestId === 'string' && !d.noRequestId ? { 'x-request-id': requestId } : {}),
    ...(d.corsWildcard ? { 'access-control-allow-origin': '*' } : {}),
  };
  const type = d.textPlainAnswers ? 'text/plain' : 'application/json';
  const send = ({ status, body }: Answer, headers: Record<string, string> = {}) => {
    res.writeHead(status, { ...(body ? { 'content-type': type } : {}), ...echo, ...headers });
    res.end(body ? JSON.stringify(body) : undefined);
  };
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  if (req.method === 'GET' && path === '/health' && !d.noHealth)
    return send({ status: 200, body: { status: 'ok', version: d.healthVersionDiffers ? '9.9.9' : version } });
  if (req.method === 'GET' && path === '/.well-known/oauth-protected-resource/mcp' && !d.noProtectedResourceMetadata)
    return send({
      status: 200,
      body: { resource: `http://${req.headers.host}/mcp`, authorization_servers: ['https://issuer.broken.example'] },
    });
  if (req.method !== 'POST' || path !== '/mcp') return send({ status: 404, body: { error: 'not found' } });
  const rpcError = (status: number, code: number, message: string, id: unknown = null) =>
    send({ status, body: { jsonrpc: '2.0', id, error: { code, message } } });
  let body = '';
  for await (const chunk of req) {
    body += chunk;
    if (!d.noPayloadLimit && body.length > MAX_BODY_BYTES)
      return rpcError(413, -32005, `Payload too large: the limit is ${MAX_BODY_BYTES} bytes`);
  }
  if (req.headers.origin && !d.corsWildcard) return rpcError(403, -32600, 'Forbidden origin');
  if (req.headers.traceparent && d.traceparentRejected) return rpcError(400, -32600, 'traceparent is not accepted');
  let m: Message;
  try {
    m = JSON.parse(body) as Message;
  } catch (e) {
    return rpcError(400, -32700, d.stackTrace ? String((e as Error).stack) : 'Parse error');
  }
  if (!(d.anonymousToolCalls && m.method === 'tools/call') && !(await authorized(req)))
    return send(
      { status: 401, body: { jsonrpc: '2.0', id: m.id ?? null, error: { code: -32001, message: 'Unauthorized' } } },
      d.noChallenge ? {} : { 'www-authenticate': 'Bearer realm="broken-mcp", error="invalid_token"' },
    );
  const headers = req.headers as Record<string, string | undefined>;
  const pv = headers['mcp-protocol-version'];
  const modern = pv === MODERN || m.params?._meta?.['io.modelcontextprotocol/protocolVersion'] !== undefined;
  if (modern) {
    const refused = modernHeaders(m, headers, d);
    if (refused) return send(refused);
  } else {
    if (d.modernOnly) return rpcError(400, -32022, 'This server speaks 2026-07-28 only', m.id ?? null);
    if (pv !== undefined && pv !== LEGACY && !d.ignoresProtocolVersionHeader)
      return rpcError(400, -32600, 'Unsupported protocol version', m.id ?? null);
    if (m.id === undefined && d.initializedRefused) return rpcError(400, -32600, 'Unexpected notification');
    if (m.id === undefined) return send({ status: 202 });
  }
  const sessionHeader: Record<string, string> =
    !modern && m.method === 'initialize' ? { 'mcp-session-id': randomUUID() } : {};
  return send(answer(m, modern, d, version, count()), sessionHeader);
}

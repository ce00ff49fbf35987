import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { createLocalJWKSet, exportJWK, generateKeyPair, jwtVerify, type JWK } from 'jose';

/** The defects a {@link startBrokenMcpServer} can be given, each breaking exactly one §18 item. */
export interface Defects {
  /** `serverInfo.version` is not semver ("v1"). */
  badVersion?: boolean;
  /** `/health` states another version than `serverInfo`. */
  healthVersionDiffers?: boolean;
  /** A 401 without `WWW-Authenticate`. */
  noChallenge?: boolean;
  /** An unknown method answers `-32600` instead of `-32601`. */
  wrongUnknownMethodCode?: boolean;
  /** A tool named in camelCase. */
  camelCaseTool?: boolean;
  /** A tool without a description. */
  toolWithoutDescription?: boolean;
  /** `X-Request-Id` is not returned. */
  noRequestId?: boolean;
  /** A malformed body is answered with the parser's stack trace. */
  stackTrace?: boolean;
  /** JWTs are taken after they expired. */
  ignoresExpiry?: boolean;
  /** JWTs for another audience are taken. */
  ignoresAudience?: boolean;
  /** A token in the query string (`?access_token=`) is taken. */
  queryToken?: boolean;
}

const TOKEN = 'good-token';

/**
 * A small MCP endpoint written without the platform (plain node:http, 2025-11-25 only, one tool): correct by
 * default, and broken on purpose per `defects`, so each compliance check is seen to fail with its own evidence.
 */
export async function startBrokenMcpServer(defects: Defects = {}): Promise<BrokenServer> {
  const version = defects.badVersion ? 'v1' : '1.4.2';
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const issuerKey = {
    privateJwk: { ...(await exportJWK(privateKey)), kid: 'broken-1', alg: 'RS256' },
    issuer: 'https://issuer.broken.example',
    audience: 'mcp:broken',
  };
  const jwks = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: 'broken-1', alg: 'RS256' }] });
  // The JWT checks, each left out by its defect (an hour of clock tolerance takes a token expired an hour ago).
  const verify = async (token: string) =>
    jwtVerify(token, jwks, {
      issuer: issuerKey.issuer,
      ...(defects.ignoresAudience ? {} : { audience: issuerKey.audience }),
      ...(defects.ignoresExpiry ? { clockTolerance: 7_200 } : {}),
    }).then(
      () => true,
      () => false,
    );
  const authorized = async (req: IncomingMessage) => {
    const query = new URL(req.url ?? '/', 'http://x').searchParams.get('access_token');
    const header = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const token = header ?? (defects.queryToken ? query : null);
    return token === TOKEN || (token ? await verify(token) : false);
  };
  const server: Server = createServer((req, res) => void handle(req, res, defects, version, authorized));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    token: TOKEN,
    issuerKey,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

/** A running {@link startBrokenMcpServer}: its endpoint, an opaque token it takes, and its JWT issuer's key. */
export interface BrokenServer {
  url: string;
  token: string;
  /** What `--issuer-key` reads: the private key, issuer and audience of the JWTs the server also takes. */
  issuerKey: { privateJwk: JWK; issuer: string; audience: string };
  close: () => Promise<void>;
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  defects: Defects,
  version: string,
  authorized: (req: IncomingMessage) => Promise<boolean>,
): Promise<void> {
  const requestId = req.headers['x-request-id'];
  const echo: Record<string, string> =
    typeof requestId === 'string' && !defects.noRequestId ? { 'x-request-id': requestId } : {};
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...echo, ...headers });
    res.end(JSON.stringify(body));
  };
  if (req.method === 'GET' && req.url === '/health')
    return json(200, { status: 'ok', version: defects.healthVersionDiffers ? '9.9.9' : version });
  if (req.method !== 'POST' || new URL(req.url ?? '/', 'http://x').pathname !== '/mcp')
    return json(404, { error: 'not found' });
  let body = '';
  for await (const chunk of req) body += chunk;
  let message: { id?: unknown; method: string };
  try {
    message = JSON.parse(body) as { id?: unknown; method: string };
  } catch (error) {
    const text = defects.stackTrace ? (error as Error).stack : 'Parse error';
    return json(400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: text } });
  }
  if (req.headers.origin)
    return json(403, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Forbidden origin' } });
  if (!(await authorized(req)))
    return json(
      401,
      { jsonrpc: '2.0', id: message.id ?? null, error: { code: -32001, message: 'Unauthorized' } },
      defects.noChallenge ? {} : { 'www-authenticate': 'Bearer realm="mcp", error="invalid_token"' },
    );
  const pv = req.headers['mcp-protocol-version'];
  if (pv !== undefined && pv !== '2025-11-25')
    return json(400, {
      jsonrpc: '2.0',
      id: message.id ?? null,
      error: { code: -32600, message: 'Unsupported version' },
    });
  if (message.id === undefined) {
    res.writeHead(202, echo).end();
    return;
  }
  const reply = (result: unknown) => json(200, { jsonrpc: '2.0', id: message.id, result });
  switch (message.method) {
    case 'initialize':
      return reply({
        protocolVersion: '2025-11-25',
        capabilities: { tools: {} },
        serverInfo: { name: 'broken-mcp', version },
      });
    case 'ping':
      return reply({});
    case 'tools/list':
      return reply({
        tools: [
          {
            name: defects.camelCaseTool ? 'getStatus' : 'get_status',
            ...(defects.toolWithoutDescription ? {} : { description: 'Returns the status of the service.' }),
            inputSchema: { type: 'object', properties: {} },
          },
        ],
      });
    default:
      return json(200, {
        jsonrpc: '2.0',
        id: message.id,
        error: { code: defects.wrongUnknownMethodCode ? -32600 : -32601, message: 'Method not found' },
      });
  }
}

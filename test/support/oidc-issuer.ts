import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { createRemoteJWKSet, exportJWK, generateKeyPair, jwtVerify, type JWTPayload } from 'jose';
import Provider, { errors } from 'oidc-provider';
import { McpTestIssuer } from '@app/mcp-testing/issuer';

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN = 'urn:ietf:params:oauth:token-type:access_token';
/** Scopes a downstream token may carry. */
const DOWNSTREAM_SCOPES = 'tickets:read tickets:write';

/** How the issuer's token endpoint behaves: answering, answering 503, or never answering. */
export type OidcIssuerMode = 'up' | 'unavailable' | 'hang';

/** Options of {@link startOidcIssuer}. */
export interface OidcIssuerOptions {
  /** Access token lifetime in seconds per resource (audience); default 300. */
  ttlSeconds?: (resource: string) => number;
}

/**
 * A real OpenID provider (`oidc-provider` 9) on a loopback port for the downstream credentials' tests: one
 * confidential client (`client_secret_basic`) allowed the client credentials grant and the token exchange grant
 * (RFC 8693, registered with `registerGrantType`), JWT access tokens whose audience is the requested resource
 * (resource indicators), token requests counted per grant. The exchange accepts a subject token signed by
 * `subjects`, a second issuer (the testing kit's {@link McpTestIssuer}) standing for the MCP server's own IdP, and
 * issues a token for the caller's subject with the requested audience and scopes and an `act` claim naming the
 * client that asked.
 */
export interface OidcIssuer {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Mints the callers' tokens the exchange accepts. */
  subjects: McpTestIssuer;
  /** Token requests received, per grant type (answered or refused). */
  tokenRequests: Record<string, number>;
  mode: OidcIssuerMode;
  /** The tiny downstream's check of a token it receives: the provider's signature, issuer and `audience`. */
  verify(token: string, audience: string): Promise<JWTPayload>;
  stop(): Promise<void>;
}

export async function startOidcIssuer(options: OidcIssuerOptions = {}): Promise<OidcIssuer> {
  const ttl = options.ttlSeconds ?? (() => 300);
  const subjects = await McpTestIssuer.start({ issuer: 'https://idp.caller.test', audience: 'mcp:desk' });
  const subjectKeys = createRemoteJWKSet(new URL(subjects.jwksUri));
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signing = { ...(await exportJWK(privateKey)), kid: 'at-1', alg: 'RS256', use: 'sig' };

  const server: Server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const issuerUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const clientId = 'desk-downstream';
  const clientSecret = 'desk-downstream-secret-0123456789';
  const resourceServer = (resource: string) => ({
    scope: DOWNSTREAM_SCOPES,
    audience: resource,
    accessTokenFormat: 'jwt' as const,
    accessTokenTTL: ttl(resource),
    jwt: { sign: { alg: 'RS256' } },
  });

  const lifetime = (_ctx: unknown, token: { resourceServer?: { accessTokenTTL?: number } }) =>
    token.resourceServer?.accessTokenTTL ?? 300;
  const provider = new Provider(issuerUrl, {
    adapter: MemoryAdapter,
    ttl: { AccessToken: lifetime, ClientCredentials: lifetime },
    jwks: { keys: [signing] },
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        grant_types: ['client_credentials', TOKEN_EXCHANGE],
        redirect_uris: [],
        response_types: [],
        token_endpoint_auth_method: 'client_secret_basic',
        scope: DOWNSTREAM_SCOPES,
      },
    ],
    scopes: DOWNSTREAM_SCOPES.split(' '),
    // RFC 8693 §4.1: an exchanged token names the party acting for its subject (the client that asked).
    extraTokenClaims: (_ctx: unknown, token: { gty?: string; clientId?: string }) =>
      token.gty === 'token_exchange' ? { act: { sub: token.clientId } } : undefined,
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined,
        useGrantedResource: () => false,
        getResourceServerInfo: (_ctx: unknown, resource: string) => resourceServer(resource),
      },
    },
  });

  provider.registerGrantType(
    TOKEN_EXCHANGE,
    async (ctx) => {
      const params = ctx.oidc.params as Record<string, string | undefined>;
      if (params.subject_token_type !== ACCESS_TOKEN || !params.subject_token)
        throw new errors.InvalidRequest('subject_token of type access_token required');
      let caller: JWTPayload;
      try {
        ({ payload: caller } = await jwtVerify(params.subject_token, subjectKeys, {
          issuer: subjects.issuer,
          audience: subjects.audience,
        }));
      } catch {
        throw new errors.InvalidGrant('subject_token is not valid');
      }
      const resource = params.resource ?? params.audience;
      if (!resource) throw new errors.InvalidTarget('a resource or audience is required');
      const allowed = new Set(DOWNSTREAM_SCOPES.split(' '));
      const scope =
        (params.scope ?? '')
          .split(' ')
          .filter((s) => allowed.has(s))
          .join(' ') || undefined;
      const client = ctx.oidc.client!;
      const token = new provider.AccessToken({
        accountId: caller.sub!,
        client,
        scope,
        gty: 'token_exchange',
      });
      token.resourceServer = new provider.ResourceServer(resource, resourceServer(resource));
      const value = await token.save();
      ctx.body = {
        access_token: value,
        issued_token_type: ACCESS_TOKEN,
        token_type: 'Bearer',
        expires_in: token.expiration,
        scope,
      };
    },
    ['subject_token', 'subject_token_type', 'requested_token_type', 'audience', 'resource', 'scope'],
  );

  const issuer: OidcIssuer = {
    issuer: issuerUrl,
    clientId,
    clientSecret,
    subjects,
    tokenRequests: {},
    mode: 'up',
    verify: async (token, audience) => {
      const { payload } = await jwtVerify(token, jwks, { issuer: issuerUrl, audience, typ: 'at+jwt' });
      return payload;
    },
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
      await subjects.close();
    },
  };
  const jwks = createRemoteJWKSet(new URL(`${issuerUrl}/jwks`));

  // Token requests counted by grant type, answered or refused; faults sit in front of the provider.
  const count = (ctx: { oidc?: { params?: { grant_type?: unknown } } }) => {
    const grant = String(ctx.oidc?.params?.grant_type ?? 'unknown');
    issuer.tokenRequests[grant] = (issuer.tokenRequests[grant] ?? 0) + 1;
  };
  provider.on('grant.success', count);
  provider.on('grant.error', count);
  const handle = provider.callback();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const token = req.method === 'POST' && req.url?.startsWith('/token');
    if (token && issuer.mode === 'hang') return;
    if (token && issuer.mode === 'unavailable')
      return void res.writeHead(503, { 'Content-Type': 'text/plain' }).end('down for maintenance');
    void handle(req, res);
  });
  return issuer;
}

/** The provider's storage: a Map per model (the provider's own in-memory adapter warns on every start). */
class MemoryAdapter {
  private static readonly stores = new Map<string, Map<string, { payload: Record<string, unknown> }>>();
  private readonly store: Map<string, { payload: Record<string, unknown> }>;

  constructor(model: string) {
    const stores = MemoryAdapter.stores;
    this.store = stores.get(model) ?? stores.set(model, new Map()).get(model)!;
  }

  upsert(id: string, payload: Record<string, unknown>): Promise<void> {
    this.store.set(id, { payload });
    return Promise.resolve();
  }

  find(id: string): Promise<Record<string, unknown> | undefined> {
    return Promise.resolve(this.store.get(id)?.payload);
  }

  findByUid(uid: string): Promise<Record<string, unknown> | undefined> {
    return Promise.resolve([...this.store.values()].find((e) => e.payload.uid === uid)?.payload);
  }

  findByUserCode(code: string): Promise<Record<string, unknown> | undefined> {
    return Promise.resolve([...this.store.values()].find((e) => e.payload.userCode === code)?.payload);
  }

  consume(id: string): Promise<void> {
    const entry = this.store.get(id);
    if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
    return Promise.resolve();
  }

  destroy(id: string): Promise<void> {
    this.store.delete(id);
    return Promise.resolve();
  }

  revokeByGrantId(grantId: string): Promise<void> {
    for (const [id, e] of this.store) if (e.payload.grantId === grantId) this.store.delete(id);
    return Promise.resolve();
  }
}

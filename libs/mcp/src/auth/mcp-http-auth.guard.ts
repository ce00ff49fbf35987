import { ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import type { IncomingMessage } from 'node:http';
import { MCP_AUTH_CONFIG } from './auth.constants';
import { ResolvedAuthConfig } from '../options/auth-options.interface';
import { McpAuthError } from './mcp-auth.error';
import { bindCallerToken } from './caller-token';
import { McpPrincipal } from './mcp-principal';
import { VerdictCache } from './verdict-cache';
import { TokenIntrospector } from './token-introspector';
import { anonymousFrom } from './mcp-principal';
import { KeySourceUnavailableError } from './jwks-key.source';
import { INACTIVE_TOKEN_DESCRIPTION, tokenRefusalDescription } from './token-refusal.description';
import { redact } from '../errors/redact';
import { clientAddress, nodeRequest } from '../http-adapter/node-http';

const TOKEN_QUERY_PARAMS = ['access_token', 'token', 'bearer', 'id_token'];

/**
 * Authenticates every request to the MCP HTTP endpoints with a Bearer JWT (passport-jwt). Tokens in
 * the query string are refused. A verified token's verdict is cached (see {@link VerdictCache}).
 * @internal
 */
@Injectable()
export class McpHttpAuthGuard extends AuthGuard('mcp-jwt') {
  private readonly logger = new Logger('McpAuth');
  private readonly cache: VerdictCache;

  private readonly introspected: VerdictCache;

  constructor(
    @Inject(MCP_AUTH_CONFIG) private readonly config: ResolvedAuthConfig,
    private readonly introspector: TokenIntrospector,
  ) {
    super();
    this.cache = new VerdictCache(config.jwksCacheTtlMs);
    this.introspected = new VerdictCache(config.introspection?.cacheTtlMs ?? 0);
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.config.mode === 'disabled' || context.getType() !== 'http') return true;
    const req = this.getRequest(context);
    if (hasQueryToken(req.url ?? ''))
      this.fail(
        401,
        'invalid_request',
        'Access tokens are not accepted in the query string',
        'token in query string',
        'token_in_query',
      );
    // Node keeps only the first of several Authorization headers: a second (say, a valid token behind garbage
    // or the reverse) must not be silently ignored, so the request is refused (RFC 6750: 400 invalid_request).
    if (authorizationHeaders(req.rawHeaders) > 1)
      this.fail(
        400,
        'invalid_request',
        'Send exactly one Authorization header',
        'several Authorization headers',
        'duplicate_header',
      );
    const header = req.headers.authorization;
    if (!header && this.config.anonymousListing) {
      // Only initialize, ping and the lists get through; the transport refuses the rest (401).
      req.user = anonymousFrom(clientAddress(req));
      return true;
    }
    if (!header) this.fail(401, undefined, 'Authentication required', 'missing token');
    // A token verified before passed the syntax check below as this exact string: a hit needs only the prefix checked.
    const seen = BEARER_PREFIX.test(header!) ? this.verdictOf(header!.slice(7)) : undefined;
    if (seen) {
      req.user = seen;
      return true;
    }
    const match = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i.exec(header!);
    if (!match)
      this.fail(
        401,
        'invalid_request',
        'Use Authorization: Bearer <token>',
        'malformed Authorization header',
        'malformed_header',
      );
    const token = match![1]; // header.slice(7): not in the caches (looked up above)
    const isJwt = token.split('.').length === 3;
    if (this.introspector.enabled && (!isJwt || (!this.config.jwks && !this.config.hs256Secret))) {
      req.user = await this.introspect(token);
      bindCallerToken(req.user, token);
      return true;
    }
    await super.canActivate(context);
    // Kept beside the principal for downstream clients (which refuse to forward it), never on it.
    bindCallerToken(req.user!, token);
    this.cache.set(token, req.user!);
    return true;
  }

  /**
   * Node's request on either adapter: passport and this guard put the principal on it (`user`), where the transports
   * read it.
   */
  override getRequest(context: ExecutionContext): IncomingMessage & { user?: McpPrincipal } {
    return nodeRequest(context.switchToHttp().getRequest());
  }

  private verdictOf(token: string): McpPrincipal | undefined {
    return this.cache.get(token) ?? this.introspected.get(token);
  }

  private readonly refused = new Map<string, number>();

  private async introspect(token: string): Promise<McpPrincipal> {
    const refusedUntil = this.refused.get(token);
    if (refusedUntil !== undefined && refusedUntil > Date.now())
      this.fail(401, 'invalid_token', INACTIVE_TOKEN_DESCRIPTION, 'introspection: inactive (cached)');
    let verdict: McpPrincipal | 'inactive';
    try {
      verdict = await this.introspector.introspect(token);
    } catch (e) {
      // redact(): a URL in the message (with user info or a query) must not put a credential in the log.
      this.logger.error(`token introspection failed: ${redact((e as Error).message)}`);
      throw new McpAuthError(
        503,
        undefined,
        'The token could not be checked right now; retry shortly',
        'introspection unavailable',
      );
    }
    if (verdict === 'inactive') {
      // Remember refusals briefly, so a flood of bad tokens does not become a flood on the issuer.
      this.refused.set(token, Date.now() + 5_000);
      if (this.refused.size > 10_000) this.refused.delete(this.refused.keys().next().value as string);
      this.fail(401, 'invalid_token', INACTIVE_TOKEN_DESCRIPTION, 'introspection: inactive');
    }
    this.introspected.set(token, verdict);
    return verdict;
  }

  override handleRequest<T>(err: unknown, user: T, info: unknown): T {
    // The issuer's keys cannot be fetched: the token is neither good nor bad. 503 with Retry-After keeps the client
    // from discarding a good token (a 401 invalid_token would make it do so).
    if (info instanceof KeySourceUnavailableError || err instanceof KeySourceUnavailableError)
      throw new McpAuthError(
        503,
        undefined,
        'The token could not be checked right now: the issuer keys are unreachable; retry shortly',
        `key source unavailable: ${(info as Error | undefined)?.message ?? (err as Error).message}`,
        undefined,
        'key_source_unavailable',
      );
    if (err || !user) {
      const reason =
        info instanceof Error ? `${info.name}: ${info.message}` : err instanceof Error ? err.message : 'no principal';
      // Which check failed (the claim), never its expected value: that stays in the log's reason.
      this.fail(
        401,
        'invalid_token',
        tokenRefusalDescription(info instanceof Error ? info : err),
        reason,
        (info as Error | undefined)?.name === 'TokenExpiredError' ? 'expired_token' : undefined,
      );
    }
    return user;
  }

  private fail(
    status: 400 | 401 | 403,
    error: McpAuthError['bearerError'],
    description: string,
    reason: string,
    kind?: McpAuthError['kind'],
  ): never {
    // Logged (with the request id) and counted by McpAuthExceptionFilter, which sees every refusal.
    throw new McpAuthError(status, error, description, reason, undefined, kind);
  }
}

function hasQueryToken(url: string): boolean {
  const q = url.indexOf('?');
  if (q < 0) return false;
  const params = new URLSearchParams(url.slice(q + 1));
  return TOKEN_QUERY_PARAMS.some((p) => params.has(p));
}

/** `Bearer ` (any case, one space) in front: the scheme part of the syntax check, without the token's. */
const BEARER_PREFIX = /^Bearer /i;

/** How many Authorization headers the request carried (Node's `headers` object shows only the first). */
function authorizationHeaders(raw: string[]): number {
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i].length === 13 && raw[i].toLowerCase() === 'authorization') count++;
  return count;
}

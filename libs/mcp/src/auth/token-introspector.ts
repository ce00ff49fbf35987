import { Inject, Injectable } from '@nestjs/common';
import { MCP_AUTH_CONFIG } from './auth.constants';
import { ResolvedAuthConfig } from '../options/auth-options.interface';
import { McpPrincipal, principalFromClaims } from './mcp-principal';

/**
 * RFC 7662 token introspection for opaque bearer tokens (corporate standard A.3): the token is sent
 * to the issuer's endpoint with this server's client credentials; only `active: true` with a future
 * `exp`, a `sub`, and the configured `iss`/`aud` is accepted.
 * @internal
 */
@Injectable()
export class TokenIntrospector {
  constructor(@Inject(MCP_AUTH_CONFIG) private readonly config: ResolvedAuthConfig) {}

  get enabled(): boolean {
    return this.config.introspection !== undefined;
  }

  /** The principal, `'inactive'` for a refused token; throws when the endpoint cannot answer. */
  async introspect(token: string): Promise<McpPrincipal | 'inactive'> {
    const { url, clientId, clientSecret } = this.config.introspection!;
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`,
      },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
      signal: AbortSignal.timeout(5_000),
    });
    if (!res.ok) throw new Error(`introspection endpoint answered ${res.status}`);
    const claims = (await res.json()) as Record<string, unknown>;
    if (claims.active !== true) return 'inactive';
    // Like a JWT: a future exp and a subject are required; iss and aud must match when configured.
    if (typeof claims.exp !== 'number' || claims.exp * 1000 <= Date.now()) return 'inactive';
    if (typeof claims.sub !== 'string' || claims.sub === '') return 'inactive';
    if (this.config.issuer && claims.iss !== this.config.issuer) return 'inactive';
    if (this.config.audience) {
      const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
      if (!audiences.includes(this.config.audience)) return 'inactive';
    }
    return principalFromClaims(claims);
  }
}

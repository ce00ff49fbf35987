import { redact } from '../errors/redact';
import { ResolvedAuthConfig } from '../options/auth-options.interface';
import { AuthView } from './service-page.model';

/**
 * How callers authenticate, in the words of `use://auth`: the scheme, what the token is checked
 * against, and the `npm run token` hint when the local development issuer is running. Never a secret:
 * the HS256 key and the introspection credentials stay out.
 * @internal
 */
export function authView(config: ResolvedAuthConfig, scopes: string[]): AuthView {
  if (config.mode === 'disabled')
    return {
      scheme: 'none',
      details: [['Note', 'Authentication is disabled (test fixtures only; refused in production).']],
      scopes,
    };
  const jwt = config.jwks || config.hs256Secret !== undefined;
  const details: [string, string][] = [['Header', 'Authorization: Bearer <token>']];
  if (config.issuer) details.push(['Issuer', config.issuer]);
  if (config.audience) details.push(['Audience', config.audience]);
  if (config.jwks) details.push(['JWKS', redact(config.jwksUri ?? '')], ['Algorithms', config.algorithms.join(', ')]);
  else if (config.hs256Secret !== undefined) details.push(['Algorithms', 'HS256 (shared development secret)']);
  if (config.introspection)
    details.push([
      'Introspection',
      jwt ? 'opaque tokens are checked by RFC 7662 introspection' : 'every token is checked by RFC 7662 introspection',
    ]);
  if (config.anonymousListing) details.push(['Anonymous', 'callers without a token may initialize and list, not call']);
  return {
    scheme: jwt ? 'Bearer JWT' : 'Bearer (opaque, introspected)',
    details,
    hint: config.dev
      ? 'Local development issuer: the server printed a token at start; mint others with npm run token -- --scope "..."'
      : undefined,
    scopes,
  };
}

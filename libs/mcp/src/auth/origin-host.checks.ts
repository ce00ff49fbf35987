import type { IncomingMessage } from 'node:http';
import { requestTarget, targetAuthority } from '../http-adapter/node-http';
import { AuthorityRefusal, authorityRefusal } from './host-authority';

/** Default `Host` names: loopback only (DNS-rebinding protection for local servers). @internal */
export const DEFAULT_ALLOWED_HOSTS = ['localhost', '127.0.0.1', '[::1]'];
/** Default origins: loopback pages on any port. @internal */
export const DEFAULT_ALLOWED_ORIGINS = [
  'http://localhost:*',
  'http://127.0.0.1:*',
  'http://[::1]:*',
  'https://localhost:*',
];

/** The response headers a browser page may read, on every answer to an allowed origin. @internal */
export const EXPOSE_HEADERS = 'Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate, X-Request-Id, Retry-After';

/** Compiles an allow-list where `:*` matches any port. @internal */
export function originMatcher(allowed: string[]): (origin: string) => boolean {
  const exact = new Set(allowed.filter((a) => !a.endsWith(':*')).map((a) => a.toLowerCase()));
  const prefixes = allowed.filter((a) => a.endsWith(':*')).map((a) => a.slice(0, -1).toLowerCase());
  if (allowed.includes('*')) return () => true;
  return (origin) => {
    const o = origin.toLowerCase();
    if (exact.has(o)) return true;
    return prefixes.some((p) => o.startsWith(p) && /^\d{1,5}$/.test(o.slice(p.length)));
  };
}

/** @internal */
export function hostMatcher(allowed: string[]): (host: string) => boolean {
  const names = new Set(allowed.map((h) => h.toLowerCase()));
  return (host) => {
    const h = host.toLowerCase();
    const name = h.startsWith('[') ? h.slice(0, h.indexOf(']') + 1) : h.split(':')[0];
    return names.has(h) || names.has(name);
  };
}

/**
 * Why a request to a platform route is refused before anything else looks at it, or undefined when it may go on: an
 * `Origin` outside the allow-list (403, DNS-rebinding and cross-site protection), or an authority (its Host, or the
 * target in absolute form) that is not a plain host[:port], is not allowed, or names two hosts (see authorityRefusal).
 * @internal
 */
export function originHostRefusal(
  req: IncomingMessage,
  originAllowed: (origin: string) => boolean,
  hostAllowed: (host: string) => boolean,
): AuthorityRefusal | undefined {
  const origin = req.headers.origin;
  if (origin !== undefined && !originAllowed(origin)) return { status: 403, message: 'Forbidden: Origin not allowed' };
  return authorityRefusal(req.headers.host, targetAuthority(requestTarget(req)), hostAllowed);
}

/**
 * One entry of a view's `csp` lists, read as a CSP source expression: `*`, a scheme alone (`https:`), or a host
 * source (`https://api.example.com`, `https://*.example.com`, `api.example.com:8443`, `wss://rt.example.com:*`;
 * a path after the host is allowed and ignored, as the check compares origins).
 */
interface CspSource {
  scheme?: string;
  /** `*`, `*.example.com` or an exact host; undefined for a scheme alone. */
  host?: string;
  /** `*`, digits, or undefined for the scheme's default port. */
  port?: string;
}

const SCHEME_ONLY = /^([a-z][a-z0-9+.-]*):$/i;
const HOST_SOURCE =
  /^(?:([a-z][a-z0-9+.-]*):\/\/)?(\*|(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*)(?::(\*|\d{1,5}))?(?:\/[^\s,;]*)?$/i;
const DEFAULT_PORTS: Record<string, string> = { http: '80', https: '443' };

/**
 * Parses a declared domain; undefined when it is not a source expression the host could put in its policy.
 * @internal
 */
export function parseCspSource(text: unknown): CspSource | undefined {
  if (typeof text !== 'string') return undefined;
  const scheme = SCHEME_ONLY.exec(text);
  if (scheme) return { scheme: scheme[1].toLowerCase() };
  const m = HOST_SOURCE.exec(text);
  if (!m) return undefined;
  return { scheme: m[1]?.toLowerCase(), host: m[2].toLowerCase(), port: m[3] };
}

/**
 * A browser fetches a WebSocket URL as http(s) before it checks the policy: `ws`/`wss` count as `http`/`https` on
 * both sides, and a source of the insecure scheme also allows the secure one (CSP's scheme upgrade).
 */
const asFetched = (scheme: string) => (scheme === 'ws' ? 'http' : scheme === 'wss' ? 'https' : scheme);

function schemeMatches(source: string | undefined, url: string): boolean {
  // A source without a scheme takes the view's own, which only the host knows: any web scheme is allowed.
  if (source === undefined) return url === 'http' || url === 'https';
  const a = asFetched(source);
  return a === url || (a === 'http' && url === 'https');
}

function hostMatches(source: string, host: string): boolean {
  if (source === '*') return true;
  // `*.example.com` covers every subdomain, not example.com itself.
  if (source.startsWith('*.')) return host.endsWith(source.slice(1));
  return source === host;
}

/**
 * Whether a declared domain covers an origin (`scheme://host[:port]`, lower case, default port left out), as a
 * browser would match the origin's URLs against the source expression.
 * @internal
 */
export function cspSourceCovers(source: CspSource, origin: string): boolean {
  const url = new URL(origin);
  const scheme = asFetched(url.protocol.slice(0, -1));
  if (!schemeMatches(source.scheme, scheme)) return false;
  if (source.host === undefined) return true;
  if (!hostMatches(source.host, url.hostname)) return false;
  if (source.port === '*') return true;
  if (source.port === undefined) return url.port === '';
  return source.port === (url.port || DEFAULT_PORTS[scheme]);
}

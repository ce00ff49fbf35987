import { DownstreamRequest } from './downstream.response';

/**
 * `path` and `query` resolved under `base` (whose path ends in `/`). A path naming another scheme or host, or one
 * that climbs out of the base path (`../admin`), is a programming error: refused with a plain Error (the call fails
 * with `-32603`, the detail in the server log).
 * @internal
 */
export function resolveDownstreamUrl(base: URL, path: string, query: DownstreamRequest['query']): URL {
  if (typeof path !== 'string' || /^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('//'))
    throw new Error('downstream request path must be a path under the baseUrl, not a URL');
  const url = new URL(path.replace(/^\/+/, ''), base);
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname))
    throw new Error('downstream request path must stay under the baseUrl');
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) url.searchParams.append(key, String(v));
  }
  return url;
}

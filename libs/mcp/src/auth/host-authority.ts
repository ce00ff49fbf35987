/**
 * A plain authority: a host name, an IPv4 address or a bracketed IPv6 address, with an optional port; nothing else
 * (no userinfo before `@`, no second host after it, no path). What the allow-list is matched against must be one:
 * `127.0.0.1:3000@evil.example.com` would match `127.0.0.1` by its name.
 */
const PLAIN_AUTHORITY = /^(?:[a-z0-9_][a-z0-9_.-]*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** Why the authority a request names is refused: the HTTP status and the JSON-RPC error's message. @internal */
export interface AuthorityRefusal {
  status: 400 | 403;
  message: string;
}

/**
 * Judges the authority a request names: its `Host` and, for a request target in absolute form
 * (`POST http://host/mcp`), the target's authority, which RFC 9112 §3.2.2 makes the request's host. Either that is not
 * a plain host[:port] is 400 (RFC 9112 §3.2: a Host with an invalid value); either outside the allow-list is 403, as a
 * foreign Host has always been; both allowed but different is 400 (a request names one host). Undefined when the
 * request may go on.
 * @internal
 */
export function authorityRefusal(
  host: string | undefined,
  target: string | undefined,
  allowed: (host: string) => boolean,
): AuthorityRefusal | undefined {
  if (host !== undefined && !PLAIN_AUTHORITY.test(host))
    return { status: 400, message: 'Bad Request: Host must be a host name or address with an optional port' };
  if (target !== undefined && !PLAIN_AUTHORITY.test(target)) {
    const message = "Bad Request: the request target's authority must be a host name or address with an optional port";
    return { status: 400, message };
  }
  if ((host !== undefined && !allowed(host)) || (target !== undefined && !allowed(target)))
    return { status: 403, message: 'Forbidden: Host not allowed' };
  if (host !== undefined && target !== undefined && host.toLowerCase() !== target.toLowerCase())
    return { status: 400, message: "Bad Request: the request target's authority and Host differ" };
  return undefined;
}

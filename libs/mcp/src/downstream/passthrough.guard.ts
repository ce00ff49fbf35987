/**
 * Where a request carries the caller's own bearer token, if anywhere: the name of the header, or `the URL`. Token
 * passthrough is forbidden (docs/compliance.md#s7): whatever a tool or a credentials provider put in a request, it
 * is refused before it is sent when this finds the token. Undefined when the caller has no token or none is found.
 * @internal
 */
export function findCallerToken(
  callerToken: string | undefined,
  headers: Record<string, string>,
  url: string,
): string | undefined {
  if (!callerToken) return undefined;
  for (const [name, value] of Object.entries(headers)) if (String(value).includes(callerToken)) return name;
  if (url.includes(callerToken) || url.includes(encodeURIComponent(callerToken))) return 'the URL';
  return undefined;
}

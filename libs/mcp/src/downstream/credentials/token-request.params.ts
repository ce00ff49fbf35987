/**
 * How a downstream's audience is requested: an absolute URI as `resource` (RFC 8707, which oidc-provider, Keycloak
 * and Entra honour for both grants), a logical name as `audience` (RFC 8693 §2.1, Auth0 style), since `resource`
 * must be an absolute URI.
 */
export function audienceParameter(audience: string | undefined): Record<string, string> {
  if (!audience) return {};
  return isAbsoluteUri(audience) ? { resource: audience } : { audience };
}

function isAbsoluteUri(value: string): boolean {
  try {
    const url = new URL(value);
    return !url.hash && /^[a-z][a-z0-9+.-]*:$/i.test(url.protocol);
  } catch {
    return false;
  }
}

/** Refuses, at construction, options a token request could never succeed with (each named with the downstream). */
export function checkIssuerOptions(
  downstream: string,
  options: { issuer: string; clientId: string; clientSecret: string },
): void {
  const problems: string[] = [];
  let url: URL | undefined;
  try {
    url = new URL(options.issuer);
  } catch {
    problems.push('issuer is not a URL');
  }
  if (url && url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url)))
    problems.push('issuer must be https:// (http:// only on loopback)');
  if (!options.clientId) problems.push('clientId is empty');
  if (!options.clientSecret) problems.push('clientSecret is empty');
  if (problems.length) throw new Error(`downstream "${downstream}" credentials: ${problems.join('; ')}`);
}

/** A loopback issuer (tests, a sidecar) may speak plain HTTP. */
export function isLoopback(url: URL): boolean {
  return ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
}

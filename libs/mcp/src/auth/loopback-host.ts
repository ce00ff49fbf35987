/**
 * True when `host` (a `HOST` value) binds loopback only, so no other machine can reach the server: `localhost`,
 * `127.x.x.x`, `::1` or `[::1]`. A server without real authentication (the development issuer, or authentication
 * disabled) serves only such a host.
 * @internal
 */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase();
  return h === 'localhost' || h === '::1' || h === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(h);
}

/**
 * The error that stops a server from serving `host` with authentication disabled, when `host` is not loopback
 * (`HOST=0.0.0.0` would serve every interface to anyone); undefined for a loopback host or none (the default,
 * `127.0.0.1`). One line, naming what to do.
 * @internal
 */
export function unauthenticatedHostError(host: string | undefined): Error | undefined {
  if (!host || isLoopbackHost(host)) return undefined;
  return new Error(
    `McpModule auth: authentication is disabled and HOST=${host} is not loopback; set HOST=127.0.0.1, or configure MCP_JWKS_URI, MCP_JWT_ISSUER and MCP_JWT_AUDIENCE (a server without authentication only serves loopback)`,
  );
}

/**
 * {@link unauthenticatedHostError} from the environment alone (`MCP_AUTH_DISABLED=true` in development or test, and
 * `HOST`), for a start that refuses before the app boots: the boot's own check (createAuthConfig) also covers
 * `auth.disabled` in `forRoot`. Production refuses a disabled authentication whatever the host, with its own message.
 * @internal
 */
export function unauthenticatedHostErrorOfEnv(env: NodeJS.ProcessEnv): Error | undefined {
  const relaxed = env.NODE_ENV === 'development' || env.NODE_ENV === 'test';
  return relaxed && env.MCP_AUTH_DISABLED === 'true' ? unauthenticatedHostError(env.HOST) : undefined;
}

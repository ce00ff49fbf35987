import type { IncomingMessage } from 'node:http';
import { McpAuthError } from './mcp-auth.error';
import { isAnonymousPrincipal, principalOf } from './mcp-principal';

/** What a caller without a token may send when anonymous listing is on. */
const ANONYMOUS_METHODS = new Set([
  'initialize',
  'notifications/initialized',
  'ping',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  // 2026-07-28: the discovery probe (corporate v2.0 §7.1, docs/compliance.md#s7, allows it anonymously, like the
  // lists).
  'server/discover',
]);

/**
 * With anonymous listing on, the guard lets token-less requests through as an anonymous principal; here,
 * once the body is parsed, anything but initialize, ping and the lists is refused with 401.
 * @internal
 */
export function assertAnonymousMayCall(req: IncomingMessage, body: unknown): void {
  if (!isAnonymousPrincipal(principalOf(req))) return;
  const method =
    !Array.isArray(body) && typeof body === 'object' && body !== null
      ? (body as { method?: unknown }).method
      : undefined;
  if (typeof method === 'string' && ANONYMOUS_METHODS.has(method)) return;
  throw new McpAuthError(
    401,
    undefined,
    'Authentication required',
    `anonymous ${typeof method === 'string' ? method.slice(0, 64) : 'batch or response'}`,
  );
}

/** True for a request let through anonymously. @internal */
export const isAnonymous = (req: IncomingMessage): boolean => isAnonymousPrincipal(principalOf(req));

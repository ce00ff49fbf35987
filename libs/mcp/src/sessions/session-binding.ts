import type { IncomingMessage } from 'node:http';
import { McpSession } from './mcp-session';
import { McpAuthError } from '../auth/mcp-auth.error';
import { isAnonymousPrincipal, principalOf } from '../auth/mcp-principal';

/**
 * Binds a session to the subject that created it: a session id is never identity, so a request
 * carrying another subject's (valid) token for this session is refused with 403.
 * @internal
 */
export function bindPrincipal(session: McpSession, req: IncomingMessage): void {
  const principal = principalOf(req);
  if (!principal) return;
  const owner = session.principal;
  if (!owner) {
    session.principal = principal;
    return;
  }
  // Anonymous and authenticated callers never share a session: each direction is refused.
  if (isAnonymousPrincipal(owner) && !isAnonymousPrincipal(principal)) {
    throw new McpAuthError(
      403,
      undefined,
      'This session was opened without a token; initialize a new one',
      'anonymous session used with a token',
    );
  }
  if (!isAnonymousPrincipal(owner) && isAnonymousPrincipal(principal)) {
    throw new McpAuthError(401, undefined, 'Authentication required', 'authenticated session used without a token');
  }
  if (owner.subject !== principal.subject) {
    throw new McpAuthError(
      403,
      undefined,
      'This session belongs to another subject',
      `session subject mismatch (${principal.subject.slice(0, 64)})`,
    );
  }
}

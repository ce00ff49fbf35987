import type { Request } from 'express';
import { McpSession } from '../protocol/mcp-session';
import { McpAuthError } from './mcp-auth.error';
import { ANONYMOUS, McpPrincipal } from './mcp-principal';

/**
 * Binds a session to the subject that created it: a session id is never identity, so a request
 * carrying another subject's (valid) token for this session is refused with 403.
 * @internal
 */
export function bindPrincipal(session: McpSession, req: Request): void {
  const principal = (req as { user?: McpPrincipal }).user;
  if (!principal) return;
  const owner = session.principal as McpPrincipal | undefined;
  // A session opened anonymously (anonymous listing) is claimed by the first authenticated caller.
  if (owner && owner !== ANONYMOUS && owner.subject !== principal.subject) {
    throw new McpAuthError(403, undefined, 'This session belongs to another subject', `session subject mismatch (${principal.subject.slice(0, 64)})`);
  }
  session.principal = principal;
}

import { McpPrincipal } from '../auth/mcp-principal';
import { McpTaskPatch, McpTaskRecord } from '../stores/task.store';

/** The patch that fails a task with a JSON-RPC error (its message shown as the status message too). @internal */
export const failed = (code: number, message: string): McpTaskPatch => ({
  status: 'failed',
  error: { code, message },
  statusMessage: message,
});

/** The caller as the run's guards and handler see it, rebuilt from what the task kept. @internal */
export function principalOf(task: McpTaskRecord): McpPrincipal | undefined {
  const p = task.caller.principal;
  if (!p) return undefined;
  return {
    subject: p.subject,
    scopes: new Set(p.scopes),
    claims: p.claims,
    ...(p.allScopes ? { allScopes: true } : {}),
  };
}
